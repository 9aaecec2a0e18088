package io.railgun.bench.e2e;

import java.util.List;
import java.util.Locale;

/** Prints the harness's results on standard output: the details of each rate, then the table. Stateless. */
final class RunReport {
    private RunReport() {}

    /** The figures of one rate, as soon as it is measured. */
    static void printRun(E2eOptions o, RunFigures f) {
        ReplyTally t = f.tally();
        System.out.printf(Locale.ROOT, "rate %,.0f ev/s asked, %,.1f sent (measured part), %,.1f replies/s; %,d events:"
                        + " p50 %.2f  p90 %.2f  p99 %.2f  p99.9 %.2f  p99.99 %.2f  max %.2f ms"
                        + " (warm-up: p99 %.2f, max %.2f)%n",
                f.rate(), f.achievedRate(), f.replyRate(), f.events(), f.ms(50), f.ms(90), f.ms(99), f.ms(99.9),
                f.ms(99.99), f.maxMs(), f.warmupLatency().getValueAtPercentile(99) / 1e6,
                f.warmupLatency().getMaxValue() / 1e6);
        if (f.warmupSent() < f.warmupEvents()) {
            System.out.printf(Locale.ROOT, "  warm-up: %,d of its %,d events sent; the node could not take the rate"
                    + " while warming up (JIT), and the rest were skipped: if the measured part starts with a"
                    + " backlog, give it a longer --warmup (--first-warmup at the first rate; 120s reaches the steady"
                    + " state at 5,000 ev/s on 2 cores)%n",
                    f.warmupSent(), f.warmupEvents());
        }
        System.out.printf(Locale.ROOT, "  errors %,d: non-200 %s, client timeouts %,d, unreachable %,d, other %,d,"
                        + " no outcome %,d, not sent in time %,d; warm-up errors %,d | whole run: dropped late %,d,"
                        + " duplicates %,d; %,d replies checked, %,d failed%n", f.errors(), f.statusSummary(),
                t.timeouts.sum(), t.unreachable.sum(), t.otherFailures.sum(), f.lost(), f.unsent(),
                t.warmupErrors.sum(), t.late.sum(), t.duplicates.sum(), t.checked.sum(), t.checkFailures.sum());
        for (String s : t.samples()) {
            System.out.println("    " + s);
        }
        System.out.printf(Locale.ROOT, "  injector: late for its sends by p99 %.3f, p99.9 %.3f, max %.2f ms; %,d sends"
                        + " waited for one of the %d connections; %.0f B/event%n",
                f.lag().getValueAtPercentile(99) / 1e6, f.lag().getValueAtPercentile(99.9) / 1e6,
                f.lag().getMaxValue() / 1e6, f.blockedSends(), o.connections(), f.bytesPerEvent());
        if (f.load() != null) {
            System.out.println("  measured part: " + f.load().describe());
        }
        System.out.printf(Locale.ROOT, "  CPU per event (process user+sys over the measured part / %,d events answered):"
                        + " node %s, %s %s%n", f.loadEvents(), us(f.nodeCpuUsPerEvent()),
                o.mode().equals("in-process") ? "node+injector" : "injector", us(f.injectorCpuUsPerEvent()));
        AllocationFigures a = f.allocation();
        if (a != null) {
            System.out.printf(Locale.ROOT, "  node heap allocation per event: %,.0f B (%s); node GC in the measured"
                    + " part: %s%n", a.bytesPerEvent(), a.describeGroups(), a.describeGc());
        }
        if (f.nodeSched() != null || f.injectorSched() != null) {
            String node = f.nodeSched() == null ? (o.mode().equals("in-process") ? "" : "node ?; ")
                    : String.format(Locale.ROOT,
                    "node %.0f µs on a CPU, %.0f µs waiting for one, %.1f context switches; ",
                    f.perEvent(f.nodeSched(), 0), f.perEvent(f.nodeSched(), 1), f.perEvent(f.nodeSched(), 2));
            String injector = f.injectorSched() == null ? "injector ?" : String.format(Locale.ROOT,
                    "%s %.0f µs on a CPU, %.1f context switches", o.mode().equals("in-process") ? "node+injector"
                            : "injector", f.perEvent(f.injectorSched(), 0), f.perEvent(f.injectorSched(), 2));
            System.out.println("  per event (schedstat, live threads): " + node + injector);
        }
        if (!f.busiestThreads().isEmpty()) {
            System.out.println("  node's busiest threads (share of one core, and of one core's time spent waiting for"
                    + " a CPU): " + String.join(", ", f.busiestThreads()));
        }
        SlowReplies slow = t.slowReplies();
        List<SlowReplies.Episode> episodes = slow.episodes();
        System.out.printf(Locale.ROOT, "  %s over %.0f ms: %,d (%.3f%%) in %,d episode(s)%s%s%n",
                f.batch() > 1 ? "events answered" : "replies", o.slowMs(), slow.total(),
                f.events() == 0 ? 0 : 100.0 * slow.total() / f.events(), episodes.size(),
                slow.atNs().length >= ReplyTally.SLOW_CAPACITY
                        ? String.format(Locale.ROOT, " (of the first %,d)", slow.atNs().length) : "",
                episodes.isEmpty() ? "" : "; worst:");
        for (SlowReplies.Episode e : episodes.subList(0, Math.min(8, episodes.size()))) {
            System.out.printf(Locale.ROOT, "    %s (+%.1f s): %,d replies over %.0f ms within %.0f ms, worst %.1f ms%n",
                    f.clock(e.startNs()), e.startNs() / 1e9, e.replies(), o.slowMs(), (e.endNs() - e.startNs()) / 1e6,
                    e.maxLatencyNs() / 1e6);
        }
    }

    /**
     * The table of every rate measured — latencies, and per event the node's CPU (µs, process user+sys),
     * the injector's, and the node's heap allocation (B) — and the verdict on L1 (5,000 and 20,000
     * ev/s) or L2 (a sweep).
     */
    static void printTable(E2eOptions o, List<RunFigures> figures, Double highestPassing) {
        System.out.printf("%n%-5s %-10s %5s %9s %10s %9s %7s %8s %8s %8s %8s %8s %8s %9s %9s %9s %8s%n", "query", "node",
                "batch", "rate/s", "achieved", "events", "errors", "p50 ms", "p90", "p99", "p99.9", "p99.99", "max",
                "node µs/ev", "inj µs/ev", "node B/ev", "busy CPU");
        for (RunFigures f : figures) {
            System.out.printf(Locale.ROOT,
                    "%-5s %-10s %5d %,9.0f %,10.1f %,9d %,7d %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %10s %9s %9s %8s%n",
                    o.query(), o.mode() + (o.label().isEmpty() ? "" : "/" + o.label()), f.batch(), f.rate(),
                    f.achievedRate(), f.events(), f.errors(), f.ms(50), f.ms(90), f.ms(99), f.ms(99.9), f.ms(99.99),
                    f.maxMs(), us(f.nodeCpuUsPerEvent()), us(f.injectorCpuUsPerEvent()),
                    f.nodeAllocBytesPerEvent() < 0 ? "?" : String.format(Locale.ROOT, "%,.0f", f.nodeAllocBytesPerEvent()),
                    f.load() == null || f.load().machine() < 0 ? "?"
                            : String.format(Locale.ROOT, "%.0f%%", 100 * f.load().machine()));
        }
        for (RunFigures f : figures) {
            double boundMs = f.rate() == 5000 ? 10 : f.rate() == 20000 ? 20 : -1;
            if (boundMs > 0 && !o.sweep()) {
                System.out.printf(Locale.ROOT, "L1 (%,.0f ev/s%s, p99.9 < %.0f ms): p99.9 = %.2f ms, %,d errors: %s%n",
                        f.rate(), f.batch() > 1 ? ", batches of " + f.batch() : "", boundMs, f.ms(99.9), f.errors(),
                        f.errors() == 0 && f.ms(99.9) < boundMs ? "met" : "NOT met");
            }
        }
        if (o.sweep()) {
            System.out.printf(Locale.ROOT, "highest rate with p99.9 < %.0f ms, no errors and >= 95%% of the rate sent:"
                    + " %s%n", o.sloMs(), highestPassing == null ? "none"
                    : String.format(Locale.ROOT, "%,.0f ev/s%s (L2: >= 50,000 on 2 cores)", highestPassing,
                    o.batch() > 1 ? " in batches of " + o.batch() : ""));
        }
    }

    /** {@code 285 µs}, or {@code ?} for an unknown (negative) figure. */
    private static String us(double micros) {
        return micros < 0 ? "?" : String.format(Locale.ROOT, "%,.0f µs", micros);
    }
}
