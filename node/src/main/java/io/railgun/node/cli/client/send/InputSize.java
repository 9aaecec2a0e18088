package io.railgun.node.cli.client.send;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How many events a file holds, roughly, for the progress bar's total and time left: its non-empty
 * lines, less the header of a CSV file (a quoted line break makes it an overestimate). One pass over
 * the bytes; -1 when the file cannot be read (the reader then says why).
 */
final class InputSize {

    private InputSize() {
    }

    static long events(Path file, EventFormat format) {
        long lines = 0;
        boolean content = false;
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                for (int i = 0; i < n; i++) {
                    byte b = buffer[i];
                    if (b == '\n') {
                        if (content) {
                            lines++;
                        }
                        content = false;
                    } else if (b != '\r' && b != ' ' && b != '\t') {
                        content = true;
                    }
                }
            }
        } catch (IOException e) {
            return -1;
        }
        if (content) {
            lines++;
        }
        return format == EventFormat.CSV ? Math.max(0, lines - 1) : lines;
    }
}
