package io.railgun.bench.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * The injector's side thread: every second of the run (ticks aligned on the start of the measured
 * part) it moves the replies recorded since the last tick out of the {@link ReplyTally}'s recorders
 * into the totals and the per-second figures, prints a progress line every 5 s, and at the start and
 * end of the measured part reads the machine's load and the node's per-thread CPU — here rather than
 * on the sender's thread, which must not be late for its sends. The measured part ends at the end of
 * its schedule, or when the sender has sent its last request if that is later. The node's JVM
 * ({@link NodeJvm}: allocation, GC) is read at the same two points. {@link #finish}
 * (after this thread has ended) collects what came after the last tick. The per-second figures are
 * by reply time. The getters are for the injector's thread once this one has ended.
 */
final class ProgressReporter implements Runnable {
    private static final long SECOND_NS = 1_000_000_000L;

    private final ReplyTally tally;
    private final NodeUnderTest node;
    private final NodeJvm jvm;
    private final long t0;
    private final long measureStartNs;
    private final long scheduleEndNs;
    private final int connections;
    private final Semaphore inFlight;
    private final Histogram warmupTotal = new Histogram(ReplyTally.HIGHEST_NS, 3);
    private final Histogram measuredTotal = new Histogram(ReplyTally.HIGHEST_NS, 3);
    private final Histogram window = new Histogram(ReplyTally.HIGHEST_NS, 3); // the last 5 s, for progress lines
    private final List<OpenLoopInjector.Second> perSecond = new ArrayList<>();
    private Histogram interval; // recycled by the recorders
    private Histogram warmupInterval;
    private MachineLoad loadStart;
    private MachineLoad loadEnd;
    private ThreadCpu threadsStart;
    private ThreadCpu threadsEnd;
    private ThreadCpu injectorStart;
    private ThreadCpu injectorEnd;
    private NodeJvm.Reading jvmStart;
    private NodeJvm.Reading jvmEnd;
    private long completedAtStart;
    private long completedAtEnd;
    private volatile boolean senderDone;

    ProgressReporter(ReplyTally tally, NodeUnderTest node, NodeJvm jvm, long t0, long measureStartNs, long scheduleEndNs,
                     int connections, Semaphore inFlight) {
        this.tally = tally;
        this.node = node;
        this.jvm = jvm;
        this.t0 = t0;
        this.measureStartNs = measureStartNs;
        this.scheduleEndNs = scheduleEndNs;
        this.connections = connections;
        this.inFlight = inFlight;
    }

    @Override
    public void run() {
        long firstK = -((measureStartNs - t0) / SECOND_NS);
        long k = firstK;
        boolean started = false;
        boolean pastSchedule = false;
        while (!Thread.currentThread().isInterrupted()) {
            long tick = measureStartNs + k * SECOND_NS;
            if (!pastSchedule && tick >= scheduleEndNs) {
                tick = scheduleEndNs;
                pastSchedule = true;
            }
            long now;
            while ((now = System.nanoTime()) < tick) {
                LockSupport.parkNanos(tick - now);
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
            }
            if (!started && tick >= measureStartNs) {
                started = true;
                completedAtStart = tally.completedEvents();
                loadStart = MachineLoad.read(node);
                jvmStart = jvm.read();
                threadsStart = ThreadCpu.read(node.pid());
                injectorStart = ThreadCpu.read(ProcessHandle.current().pid());
            }
            // the end of the measured part: the schedule's, or later when the sender is behind it
            boolean end = pastSchedule && senderDone;
            if (end) {
                completedAtEnd = tally.completedEvents();
                loadEnd = MachineLoad.read(node);
                jvmEnd = jvm.read();
                threadsEnd = ThreadCpu.read(node.pid());
                injectorEnd = ThreadCpu.read(ProcessHandle.current().pid());
            }
            collect(tick > measureStartNs);
            if (end || (k != firstK && k % 5 == 0)) {
                print(tick, end);
            }
            if (end) {
                return;
            }
            k++;
        }
    }

    /** Called by the sender once it has sent its last request. */
    void senderDone() {
        senderDone = true;
    }

    /** Events completed between the load readings at the start and end of the measured part. */
    long completedInMeasuredPart() {
        return completedAtEnd - completedAtStart;
    }

    private void collect(boolean perSecondFigures) {
        warmupInterval = tally.warmup.getIntervalHistogram(warmupInterval);
        warmupTotal.add(warmupInterval);
        interval = tally.measured.getIntervalHistogram(interval);
        measuredTotal.add(interval);
        window.add(warmupInterval);
        window.add(interval);
        if (perSecondFigures) {
            perSecond.add(new OpenLoopInjector.Second(interval.getTotalCount(), ms(interval.getValueAtPercentile(99)),
                    ms(interval.getMaxValue())));
        }
    }

    private void print(long tick, boolean end) {
        boolean warm = tick <= measureStartNs; // the tick at the measured start ends the warm-up
        double at = (tick - (warm ? t0 : measureStartNs)) / 1e9;
        System.out.printf(Locale.ROOT, "  %-7s %5.0f s: answered %,9d  in flight %4d  | last 5 s: %,7d answered p50 %7.2f"
                        + "  p99 %7.2f  max %8.2f ms%s%n", warm ? "warm-up" : end ? "end" : "measure", at,
                tally.completedEvents(), connections - inFlight.availablePermits(), window.getTotalCount(),
                ms(window.getValueAtPercentile(50)), ms(window.getValueAtPercentile(99)), ms(window.getMaxValue()),
                errors() > 0 ? "  (errors: see below)" : "");
        window.reset();
    }

    private long errors() {
        return tally.warmupErrors.sum() + tally.timeouts.sum() + tally.unreachable.sum() + tally.otherFailures.sum()
                + tally.statuses().values().stream().mapToLong(Long::longValue).sum();
    }

    /** The measured latencies, with the replies after the last tick; call once this thread has ended. */
    Histogram finish() {
        collect(false);
        return measuredTotal;
    }

    /** The warm-up's latencies (200s); complete after {@link #finish}. */
    Histogram warmup() {
        return warmupTotal;
    }

    MachineLoad.Shares loadShares() {
        return loadStart == null || loadEnd == null ? null : loadEnd.since(loadStart, node.inProcess());
    }

    /** The node's threads over the measured part: {on-CPU ns, waiting-for-a-CPU ns, slices}, or null. */
    long[] nodeSched() {
        return threadsStart == null || threadsEnd == null || threadsEnd.isEmpty() ? null
                : threadsEnd.totalSince(threadsStart);
    }

    /** The same for this (injector) process; with an in-process node, node and injector together. */
    long[] injectorSched() {
        return injectorStart == null || injectorEnd == null || injectorEnd.isEmpty() ? null
                : injectorEnd.totalSince(injectorStart);
    }

    List<String> busiestThreads() {
        if (threadsStart == null || threadsEnd == null || threadsEnd.isEmpty()) {
            return List.of();
        }
        return threadsEnd.busiestSince(threadsStart, loadEnd.atNs() - loadStart.atNs(), 12);
    }

    /** The node's allocation and GC over the measured part, or null when its JVM cannot be read. */
    AllocationFigures allocation() {
        return AllocationFigures.between(jvmStart, jvmEnd, completedInMeasuredPart());
    }

    List<OpenLoopInjector.Second> perSecond() {
        return perSecond;
    }

    private static double ms(long ns) {
        return ns / 1e6;
    }
}
