package io.railgun.bench.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import one.profiler.AsyncProfiler;

/**
 * A CPU profile of a run's timed part ({@code --profile}), or of what it allocates
 * ({@code --profile-alloc}: every thread's allocations in bytes, sampled every 16 KiB, each
 * counted by its size, so a few large arrays weigh what they weigh, not one sample each), taken
 * with async-profiler. The CPU profile samples every
 * millisecond of CPU time from the kernel's perf events (inlined frames included, no safepoint
 * bias, kernel frames too), so the replay thread's time is split as it is spent. JFR's execution
 * samples of this engine were misleading: its sampler failed on most ticks of the replay thread and
 * put up to 37% of what it kept in the benchmark's own histogram. Writes a flame graph
 * ({@code .html}) and the collapsed stacks ({@code .collapsed}, one line per stack and its samples)
 * and prints the replay thread's most sampled frames.
 */
final class TimedProfile {
    private static final String TIMED_FRAME = "TaskReplay.replaySlice";
    private static final int TOP = 15;

    private final AsyncProfiler profiler;
    private final boolean alloc;

    private TimedProfile(AsyncProfiler profiler, boolean alloc) {
        this.profiler = profiler;
        this.alloc = alloc;
    }

    /** Starts profiling (all threads) the CPU, or allocations ({@code alloc}); null when {@code enabled} is false. */
    static TimedProfile start(boolean enabled, boolean alloc) throws IOException {
        if (!enabled) {
            return null;
        }
        AsyncProfiler p = AsyncProfiler.getInstance();
        String event = alloc ? "event=alloc,alloc=16k" : "event=cpu,interval=1ms";
        System.out.println("         profile: " + p.execute("start," + event + ",threads").trim());
        return new TimedProfile(p, alloc);
    }

    /** Stops, writes {@code bench-results/engine-<label>-profile.html|.collapsed} and prints the top frames. */
    void stopAndReport(String label) throws IOException {
        profiler.stop();
        Path dir = ProcessProbes.resultsDir();
        Path html = dir.resolve("engine-" + label + "-profile.html");
        Path collapsed = dir.resolve("engine-" + label + "-profile.collapsed");
        profiler.execute("flamegraph," + (alloc ? "total," : "") + "file=" + html.toAbsolutePath());
        profiler.execute("collapsed," + (alloc ? "total," : "") + "file=" + collapsed.toAbsolutePath());
        List<String> lines = Files.readAllLines(collapsed);
        if (alloc) {
            reportAllocations(lines);
            System.out.println("         profile: " + html.toAbsolutePath() + " (flame graph), " + collapsed.toAbsolutePath());
            return;
        }
        Map<String, Long> self = new HashMap<>();
        long total = 0;
        for (String line : lines) {
            int space = line.lastIndexOf(' ');
            if (space < 0 || !line.contains(TIMED_FRAME)) {
                continue;
            }
            long n = Long.parseLong(line.substring(space + 1));
            String stack = line.substring(0, space);
            self.merge(stack.substring(stack.lastIndexOf(';') + 1), n, Long::sum);
            total += n;
        }
        long all = total;
        System.out.printf(Locale.ROOT, "         profile of the replay thread (%,d samples of 1 ms CPU), frames where it ran:%n", all);
        self.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(TOP)
                .forEach(e -> System.out.printf(Locale.ROOT, "           %5.1f%%  %s%n", 100.0 * e.getValue() / Math.max(1, all),
                        e.getKey().replace('/', '.')));
        System.out.println("         profile: " + html.toAbsolutePath() + " (flame graph), " + collapsed.toAbsolutePath());
    }

    /** Prints the frames that allocated most (every thread), with the type allocated. */
    private static void reportAllocations(List<String> lines) {
        Map<String, Long> by = new HashMap<>();
        long total = 0;
        for (String line : lines) {
            int space = line.lastIndexOf(' ');
            if (space < 0) {
                continue;
            }
            long bytes = Long.parseLong(line.substring(space + 1));
            String[] frames = line.substring(0, space).split(";");
            String type = frames[frames.length - 1].replace("_[i]", "").replace("_[k]", "");
            String site = frames.length > 1 ? frames[frames.length - 2] : "?";
            String caller = frames.length > 2 ? frames[frames.length - 3] : "?";
            by.merge(shortName(site) + " <- " + shortName(caller) + "  (" + type + ")", bytes, Long::sum);
            total += bytes;
        }
        long all = total;
        System.out.printf(Locale.ROOT, "         allocation profile (every thread, %,.1f MB), frames that allocated:%n", all / 1e6);
        by.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(TOP)
                .forEach(e -> System.out.printf(Locale.ROOT, "           %5.1f%% %,8.1f MB  %s%n",
                        100.0 * e.getValue() / Math.max(1, all), e.getValue() / 1e6, e.getKey()));
    }

    private static String shortName(String frame) {
        return frame.substring(frame.lastIndexOf('/') + 1);
    }
}
