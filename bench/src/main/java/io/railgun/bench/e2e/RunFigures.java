package io.railgun.bench.e2e;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import io.railgun.bench.plot.HistogramText;
import org.HdrHistogram.Histogram;

/**
 * The figures of one rate: asked and achieved rates, outcomes, the measured latency distribution
 * (200 replies only; every other outcome is counted in {@link #errors()}), the injector's lag, the
 * machine's load and the slow episodes. Built once the run has ended; read by the harness's thread.
 *
 * @param rate               events per second asked
 * @param batch              events per request (1, or a batch's size)
 * @param achievedRate       events per second the injector sent in the measured part
 * @param replyRate          measured 200 replies per second, from the measured start to the last reply
 * @param events             requests in the measured part's schedule
 * @param unsent             of those, the ones not sent by one request timeout after the schedule's end
 * @param warmupEvents       requests in the warm-up's schedule
 * @param warmupSent         of those, the ones sent (the others were skipped: see {@link OpenLoopInjector})
 * @param lost               requests with no outcome when the run ended (neither a reply nor a client timeout)
 * @param tally              the outcomes
 * @param latency            latency of the measured 200s, ns
 * @param warmupLatency      latency of the warm-up's 200s, ns
 * @param lag                how late the injector sent each measured request, ns
 * @param blockedSends       measured requests that waited for a free connection
 * @param load               CPU shares of the measured part, or null
 * @param loadEvents         events answered (any outcome) while the load was measured: the per-event figures'
 *                           denominator
 * @param nodeSched          the node's threads over the measured part: {on-CPU ns, waiting-for-a-CPU ns, times
 *                           given a CPU}, or null (remote node)
 * @param injectorSched      the same for the injector's process (with an in-process node: both)
 * @param busiestThreads     the node's busiest threads over the measured part (share of one core)
 * @param allocation         the node's heap allocation and GC over the measured part, or null (no JMX)
 * @param perSecond          per-second figures of the measured part
 * @param measureStartWallMs wall-clock time of the start of the measured part
 * @param bytesPerEvent      mean JSON body size
 */
record RunFigures(double rate, int batch, double achievedRate, double replyRate, int events, int unsent, int warmupEvents,
                  int warmupSent, int lost, ReplyTally tally, Histogram latency, Histogram warmupLatency, Histogram lag,
                  long blockedSends, MachineLoad.Shares load, long loadEvents, long[] nodeSched, long[] injectorSched,
                  List<String> busiestThreads, AllocationFigures allocation, List<OpenLoopInjector.Second> perSecond, long measureStartWallMs,
                  double bytesPerEvent) {

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT)
            .withZone(ZoneId.systemDefault());

    /** {@code sched[i]} per request completed in the measured part, in µs for times; -1 when unknown. */
    double perEvent(long[] sched, int i) {
        return sched == null || loadEvents <= 0 ? -1 : sched[i] / (double) loadEvents / (i < 2 ? 1e3 : 1);
    }

    /**
     * The node process's CPU time (user + sys, {@code /proc/<pid>/stat} through {@code ProcessHandle})
     * per event answered in the measured part, in µs; -1 when unknown (a remote or in-process node).
     */
    double nodeCpuUsPerEvent() {
        return load == null || load.nodeCpuNs() < 0 || loadEvents <= 0 ? -1 : load.nodeCpuNs() / 1e3 / loadEvents;
    }

    /** The same for this (injector) process; with an in-process node, node and injector together. */
    double injectorCpuUsPerEvent() {
        return load == null || load.injectorCpuNs() < 0 || loadEvents <= 0 ? -1
                : load.injectorCpuNs() / 1e3 / loadEvents;
    }

    /** The node's heap allocation per event answered in the measured part, or -1 when unknown. */
    double nodeAllocBytesPerEvent() {
        return allocation == null ? -1 : allocation.bytesPerEvent();
    }

    long non200() {
        return tally.statuses().values().stream().mapToLong(Long::longValue).sum();
    }

    /** Measured requests without a 200: other statuses, client timeouts, unreachable, other failures, lost, unsent. */
    long errors() {
        return non200() + tally.timeouts.sum() + tally.unreachable.sum() + tally.otherFailures.sum() + lost + unsent;
    }

    double ms(double percentile) {
        return latency.getTotalCount() == 0 ? Double.NaN : latency.getValueAtPercentile(percentile) / 1e6;
    }

    double maxMs() {
        return latency.getTotalCount() == 0 ? Double.NaN : latency.getMaxValue() / 1e6;
    }

    /** The wall-clock time of a point of the measured part, to find it in the node's log. */
    String clock(long sinceMeasureStartNs) {
        return CLOCK.format(Instant.ofEpochMilli(measureStartWallMs + sinceMeasureStartNs / 1_000_000));
    }

    /**
     * One JSON object: {@code head} (the configuration's fields, without braces) and the figures, the
     * measured latencies last as an encoded histogram ({@link HistogramText}) for plotting again.
     */
    String json(String head) {
        SlowReplies slow = tally.slowReplies();
        MachineLoad.Shares l = load;
        return String.format(Locale.ROOT, "{%s,\"rate\":%.0f,\"batch\":%d,\"nodeProcessCpuUsPerEvent\":%.1f,"
                        + "\"injectorProcessCpuUsPerEvent\":%.1f,\"nodeAllocBytesPerEvent\":%.1f,%s"
                        + "\"achievedRate\":%.1f,\"replyRate\":%.1f,\"events\":%d,"
                        + "\"warmupEvents\":%d,\"warmupSent\":%d,\"ok\":%d,\"errors\":%d,\"non200\":{%s},\"timeouts\":%d,"
                        + "\"unreachable\":%d,\"otherFailures\":%d,\"lost\":%d,\"unsent\":%d,\"warmupErrors\":%d,"
                        + "\"late\":%d,\"duplicates\":%d,\"checked\":%d,\"checkFailures\":%d,"
                        + "\"p50Ms\":%.3f,\"p90Ms\":%.3f,\"p99Ms\":%.3f,\"p999Ms\":%.3f,\"p9999Ms\":%.3f,\"maxMs\":%.3f,"
                        + "\"meanMs\":%.3f,\"injectorLagP99Ms\":%.3f,\"injectorLagP999Ms\":%.3f,\"injectorLagMaxMs\":%.3f,"
                        + "\"blockedSends\":%d,\"slowReplies\":%d,\"slowEpisodes\":%d,\"bytesPerEvent\":%.1f,"
                        + "\"nodeCpuUsPerEvent\":%.1f,\"nodeWaitUsPerEvent\":%.1f,\"nodeSwitchesPerEvent\":%.2f,"
                        + "\"injectorCpuUsPerEvent\":%.1f,\"injectorSwitchesPerEvent\":%.2f,"
                        + "\"cpus\":%d,\"machineBusy\":%.3f,\"nodeCpu\":%.3f,\"injectorCpu\":%.3f,\"otherCpu\":%.3f,"
                        + "\"load1Start\":%.2f,\"load1End\":%.2f,\"injectorGcCount\":%d,\"injectorGcMs\":%d,"
                        + "\"measureStart\":\"%s\",\"perSecondP99Ms\":[%s],\"perSecondMaxMs\":[%s],",
                head, rate, batch, nodeCpuUsPerEvent(), injectorCpuUsPerEvent(), nodeAllocBytesPerEvent(),
                allocation == null ? "" : allocation.json() + ",",
                achievedRate, replyRate, events, warmupEvents, warmupSent, latency.getTotalCount(), errors(),
                tally.statuses().entrySet().stream().map(e -> "\"" + e.getKey() + "\":" + e.getValue())
                        .collect(Collectors.joining(",")),
                tally.timeouts.sum(), tally.unreachable.sum(), tally.otherFailures.sum(), lost, unsent,
                tally.warmupErrors.sum(), tally.late.sum(), tally.duplicates.sum(), tally.checked.sum(),
                tally.checkFailures.sum(), ms(50), ms(90), ms(99), ms(99.9), ms(99.99), maxMs(), latency.getMean() / 1e6,
                lag.getValueAtPercentile(99) / 1e6, lag.getValueAtPercentile(99.9) / 1e6, lag.getMaxValue() / 1e6,
                blockedSends, slow.total(), slow.episodes().size(), bytesPerEvent,
                perEvent(nodeSched, 0), perEvent(nodeSched, 1), perEvent(nodeSched, 2), perEvent(injectorSched, 0),
                perEvent(injectorSched, 2),
                l == null ? Runtime.getRuntime().availableProcessors() : l.cpus(), l == null ? -1 : l.machine(),
                l == null ? -1 : l.node(), l == null ? -1 : l.injector(), l == null ? -1 : l.other(),
                l == null ? -1 : l.load1Before(), l == null ? -1 : l.load1After(), l == null ? -1 : l.injectorGcCount(),
                l == null ? -1 : l.injectorGcMs(), Instant.ofEpochMilli(measureStartWallMs),
                series(OpenLoopInjector.Second::p99Ms), series(OpenLoopInjector.Second::maxMs))
                .replace("NaN", "null") + "\"latencyHistogram\":\"" + HistogramText.encode(latency) + "\"}";
    }

    private String series(ToDoubleFunction<OpenLoopInjector.Second> value) {
        return perSecond.stream().map(s -> String.format(Locale.ROOT, "%.2f", value.applyAsDouble(s)))
                .collect(Collectors.joining(","));
    }

    /** The non-200 statuses as {@code 503×12}, or {@code -}. */
    String statusSummary() {
        Map<Integer, Long> s = tally.statuses();
        return s.isEmpty() ? "-" : s.entrySet().stream().map(e -> e.getKey() + "x" + e.getValue())
                .collect(Collectors.joining(","));
    }
}
