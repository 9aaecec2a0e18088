package io.railgun.engine.reservoir.disk;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.Schema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/** Rows of two schema versions for the reservoir tests, and the event as the tests compare it. */
final class TestRows {
    /** An event as delivered: timestamp, seq and the row bytes in hex. */
    record Ev(long ts, long seq, String row) {
        static Ev of(long ts, long seq, EventRow row) {
            return new Ev(ts, seq, HexFormat.of().formatHex(row.buffer(), row.offset(), row.offset() + row.length()));
        }
    }

    static final Schema V1;
    static final Schema V2;

    static {
        Map<String, FieldType> f = new LinkedHashMap<>();
        f.put("n", FieldType.LONG);
        f.put("s", FieldType.STRING);
        V1 = Schema.of(f);
        V2 = V1.withField("x", FieldType.DOUBLE);
    }

    private final EventRowWriter writer = new EventRowWriter();

    /** A row numbered {@code n} with a string of {@code textLength} characters, in V1 or V2. */
    EventRow row(long n, int textLength, boolean v2) {
        writer.begin(v2 ? V2 : V1).setLong(0, n).setString(1, "p".repeat(textLength) + n);
        if (v2) {
            writer.setDouble(2, n * 0.5);
        }
        writer.finish();
        return writer.row();
    }

    /** A row numbered {@code n} of one fixed length for {@code n} up to 9999, in V1. */
    EventRow fixedRow(long n) {
        return row(n, 8 - Long.toString(n).length(), false);
    }

    /** Options whose chunks hold exactly {@code eventsPerChunk} rows of {@link #fixedRow}. */
    DiskReservoirOptions chunksOf(int eventsPerChunk) {
        return DiskReservoirOptions.defaults().withChunkTargetBytes(eventsPerChunk * fixedRow(0).length());
    }

    static Path tempDir() {
        try {
            return Files.createTempDirectory("reservoir-test");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteRecursively(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
