package io.railgun.bench.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The scheduler's figures for every thread of a process, read from {@code
 * /proc/<pid>/task/<tid>/schedstat} (Linux): time on a CPU, time runnable but waiting for one, and
 * how many times it was given a CPU (each a context switch in), with the thread's name as the kernel
 * keeps it (at most 15 characters). Two readings say which of the node's threads used the CPU in
 * between — processor units, Kafka's broker and client threads, the HTTP server's carriers, GC —
 * grouped by name with digits folded, how long they waited for a CPU (the cores being busy), and
 * how many hand-offs between threads an event costs. An empty reading when /proc is not there.
 */
final class ThreadCpu {
    private final Map<Long, long[]> byTid = new HashMap<>(); // tid -> {on-CPU ns, waiting ns, slices}
    private final Map<Long, String> nameByTid = new HashMap<>();

    static ThreadCpu read(long pid) {
        ThreadCpu r = new ThreadCpu();
        if (pid < 0) {
            return r;
        }
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String[] f = Files.readString(task.resolve("schedstat")).trim().split(" ");
                    long tid = Long.parseLong(task.getFileName().toString());
                    r.byTid.put(tid, new long[] {Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2])});
                    r.nameByTid.put(tid, Files.readString(task.resolve("comm")).strip());
                } catch (IOException | RuntimeException e) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException | RuntimeException e) {
            return r;
        }
        return r;
    }

    boolean isEmpty() {
        return byTid.isEmpty();
    }

    /** Sums over all threads from {@code before} to this reading: {on-CPU ns, waiting ns, slices}. */
    long[] totalSince(ThreadCpu before) {
        long[] sum = new long[3];
        for (Map.Entry<Long, long[]> e : byTid.entrySet()) {
            long[] was = before.byTid.getOrDefault(e.getKey(), new long[3]);
            for (int i = 0; i < 3; i++) {
                sum[i] += e.getValue()[i] - was[i];
            }
        }
        return sum;
    }

    /**
     * The busiest thread groups from {@code before} to this reading, at most {@code top}: {@code
     * name xthreads cpu% (waiting w%)}, both as shares of one core over {@code wallNs}.
     */
    List<String> busiestSince(ThreadCpu before, double wallNs, int top) {
        Map<String, long[]> byGroup = new HashMap<>();
        Map<String, Integer> threads = new HashMap<>();
        for (Map.Entry<Long, long[]> e : byTid.entrySet()) {
            long[] was = before.byTid.getOrDefault(e.getKey(), new long[3]);
            String group = nameByTid.get(e.getKey()).replaceAll("[0-9]+", "#");
            long[] g = byGroup.computeIfAbsent(group, k -> new long[2]);
            g[0] += e.getValue()[0] - was[0];
            g[1] += e.getValue()[1] - was[1];
            threads.merge(group, 1, Integer::sum);
        }
        List<String> lines = new ArrayList<>();
        byGroup.entrySet().stream().filter(e -> e.getValue()[0] > 0)
                .sorted((a, b) -> Long.compare(b.getValue()[0], a.getValue()[0])).limit(top)
                .forEach(e -> lines.add(String.format(Locale.ROOT, "%s x%d %.0f%% (waiting %.0f%%)", e.getKey(),
                        threads.get(e.getKey()), 100 * e.getValue()[0] / wallNs, 100 * e.getValue()[1] / wallNs)));
        return lines;
    }
}
