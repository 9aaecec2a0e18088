package io.railgun.node.cli.client;

import java.io.Console;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether stderr and stdout are interactive terminals, for the progress bar of {@code send}. */
final class Terminal {

    private Terminal() {
    }

    /**
     * On Linux, what {@code /proc/self/fd/N} points to ({@code /dev/pts/N}, {@code /dev/ttyN}); elsewhere
     * {@link Console#isTerminal()}, which says whether stdin and stdout are (the JDK cannot ask about one stream).
     */
    static boolean stderrIsTerminal() {
        return isTerminal(2);
    }

    static boolean stdoutIsTerminal() {
        return isTerminal(1);
    }

    private static boolean isTerminal(int fd) {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            Console console = System.console();
            return console != null && console.isTerminal();
        }
    }
}
