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
 * A CPU profile of a run's timed part ({@code --profile}), taken with async-profiler: samples every
 * millisecond of CPU time from the kernel's perf events (inlined frames included, no safepoint
 * bias, kernel frames too), so the replay thread's time is split as it is spent. JFR's execution
 * samples of this engine were misleading: its sampler failed on most ticks of the replay thread and
 * put up to 37% of what it kept in the benchmark's own histogram. Writes a flame graph
 * ({@code .html}) and the collapsed stacks ({@code .collapsed}, one line per stack and its samples)
 * and prints the replay thread's most sampled frames.
 */
final class TimedProfile {
    private static final String TIMED_FRAME = "TaskReplay.replayTimed";
    private static final int TOP = 15;

    private final AsyncProfiler profiler;

    private TimedProfile(AsyncProfiler profiler) {
        this.profiler = profiler;
    }

    /** Starts profiling the CPU (all threads); null when {@code enabled} is false. */
    static TimedProfile start(boolean enabled) throws IOException {
        if (!enabled) {
            return null;
        }
        AsyncProfiler p = AsyncProfiler.getInstance();
        System.out.println("         profile: " + p.execute("start,event=cpu,interval=1ms,threads").trim());
        return new TimedProfile(p);
    }

    /** Stops, writes {@code bench-results/engine-<label>-profile.html|.collapsed} and prints the top frames. */
    void stopAndReport(String label) throws IOException {
        profiler.stop();
        Path dir = ProcessProbes.resultsDir();
        Path html = dir.resolve("engine-" + label + "-profile.html");
        Path collapsed = dir.resolve("engine-" + label + "-profile.collapsed");
        profiler.execute("flamegraph,file=" + html.toAbsolutePath());
        profiler.execute("collapsed,file=" + collapsed.toAbsolutePath());
        List<String> lines = Files.readAllLines(collapsed);
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
}
