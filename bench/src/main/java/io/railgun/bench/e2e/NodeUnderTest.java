package io.railgun.bench.e2e;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The node the injector measures: one started for the run (a child JVM or in this JVM, with an
 * embedded broker and a temporary data directory, deleted at the end) or a running one given by its
 * URL. Used by the harness's main thread only.
 */
interface NodeUnderTest extends AutoCloseable {

    /** The HTTP API's base URI. */
    URI uri();

    /** How it runs, for the report, e.g. {@code child JVM pid 1234}. */
    String describe();

    /** The node process's CPU time so far in ns, or -1 when it is not known (a remote node). */
    long cpuNanos();

    /** The OS process id of the node, or -1 when it is not on this machine as a process of ours. */
    long pid();

    /** Whether the node runs in this JVM (its CPU time is then the injector's too). */
    default boolean inProcess() {
        return false;
    }

    /** Stops the node if it was started for the run, and deletes its data. */
    @Override
    void close();

    static NodeUnderTest start(E2eOptions o, Path logFile, Path jfrFile) throws IOException, InterruptedException {
        if (o.url() != null) {
            return new RemoteNode(URI.create(o.url()));
        }
        Path dataDir = Files.createTempDirectory("railgun-e2e-");
        return o.nodeMode().equals("in-process") ? InProcessNode.start(dataDir, o.processors())
                : ChildNode.start(dataDir, o, logFile, jfrFile);
    }

    static void deleteTree(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            System.err.println("could not delete " + root + ": " + e);
        }
    }
}
