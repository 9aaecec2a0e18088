package io.railgun.bench.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * What an {@link EngineBench} run reads about its process and machine (heap, RSS, scheduler time,
 * load average, bytes on disk; Linux's {@code /proc} where it must) and the files it manages
 * (results, data directories). Stateless; the thread-scoped readings are of the calling thread.
 */
final class ProcessProbes {
    private ProcessProbes() {}

    /** {@code bench-results/}, created if missing. */
    static Path resultsDir() throws IOException {
        Path dir = Path.of("bench-results");
        Files.createDirectories(dir);
        return dir;
    }

    /** Bytes in the regular files under {@code dirs}. */
    static long sizeOf(List<Path> dirs) throws IOException {
        long bytes = 0;
        for (Path dir : dirs) {
            if (!Files.exists(dir)) {
                continue;
            }
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path p : paths.filter(Files::isRegularFile).toList()) {
                    try {
                        bytes += Files.size(p);
                    } catch (IOException e) {
                        // a file RocksDB deleted while we walked
                    }
                }
            }
        }
        return bytes;
    }

    /** Heap still reachable after a full GC. */
    static long liveHeapMb() {
        System.gc();
        Runtime rt = Runtime.getRuntime();
        return (rt.totalMemory() - rt.freeMemory()) >> 20;
    }

    /**
     * This thread's time on a CPU and time runnable but waiting for one, in ns
     * ({@code /proc/thread-self/schedstat}, Linux), or null.
     */
    static long[] schedStat() {
        try {
            String[] f = Files.readString(Path.of("/proc/thread-self/schedstat")).trim().split(" ");
            return new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The 1-minute load average (Linux), or "?". */
    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    /** Resident set size of this process (Linux), or -1. */
    static long rssMb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) >> 10;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** Deletes {@code root} and everything under it, if it exists. */
    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
