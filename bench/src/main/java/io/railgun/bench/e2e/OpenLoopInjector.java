package io.railgun.bench.e2e;

import io.railgun.client.RailgunClient;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * The open-loop injector: request {@code i} is due at {@code t0 + i / rate}, whatever happened to
 * the ones before it, and its latency is reply time − due time. A reply that is slow does not slow
 * the schedule down (no coordinated omission: the requests that would have been sent meanwhile are
 * sent, or, when every connection is taken or the injector itself is late, sent late and measured
 * from when they were due). Each request is the event's pre-serialised JSON through {@link
 * RailgunClient#sendJsonAsync}; outcomes go to a {@link ReplyTally} from the client's threads.
 *
 * <p>The warm-up runs on the same schedule but ends on time: warm-up events not sent by the start
 * of the measured part (the node was too slow for the rate while warming up, and every connection
 * was taken) are skipped, so the measured part starts from its own schedule; the measured events'
 * timestamps are then moved back by the event time the skipped ones covered, so that event time
 * goes on without a jump (which would make the warm-up requests still in flight late).
 *
 * <p>A node much slower than the rate would make the measured part last as long as its backlog: the
 * sender stops one request timeout after the end of the schedule, and the events it could not send
 * by then are counted as errors ("unsent").
 *
 * <p>The sender runs on the calling thread and parks between sends (no spinning: on a 2-core
 * machine a spinning injector would take a core from the node); how late it was for each send is
 * recorded too (the "injector lag"), so a late injector shows as such rather than as a slow node. A
 * {@link ProgressReporter} thread prints progress every 5 s and reads the machine's load at the
 * start and end of the measured part. One run at a time.
 */
final class OpenLoopInjector {
    private final RailgunClient client;
    private final String stream;
    private final E2eOptions options;
    private final NodeUnderTest node;

    OpenLoopInjector(RailgunClient client, String stream, E2eOptions options, NodeUnderTest node) {
        this.client = client;
        this.stream = stream;
        this.options = options;
        this.node = node;
    }

    /**
     * Sends {@code events} at {@code rate}, the first {@code warmupEvents} as the warm-up, and returns the
     * figures of the measured part.
     */
    RunFigures run(double rate, JsonPayments events, int warmupEvents, Set<String> metricNames)
            throws InterruptedException {
        int n = events.size();
        double periodNs = 1e9 / rate;
        long t0 = System.nanoTime() + 200_000_000L;
        long measureStartNs = t0 + Math.round(warmupEvents * periodNs);
        long scheduleEndNs = t0 + Math.round(n * periodNs);
        long wallT0Ms = System.currentTimeMillis() + (t0 - System.nanoTime()) / 1_000_000;
        ReplyTally tally = new ReplyTally(client, events.ids, metricNames, warmupEvents, options.checkEvery(),
                Math.round(options.slowMs() * 1e6), measureStartNs);
        Semaphore inFlight = new Semaphore(options.connections());
        ProgressReporter reporter = new ProgressReporter(tally, node, t0, measureStartNs, scheduleEndNs,
                options.connections(), inFlight);
        Thread reporterThread = new Thread(reporter, "e2e-progress");
        reporterThread.setDaemon(true);
        reporterThread.start();

        Histogram lag = new Histogram(ReplyTally.HIGHEST_NS, 3);
        long sendDeadlineNs = scheduleEndNs + options.timeoutMs() * 1_000_000L;
        long blockedSends = 0;
        long lastSendNs = t0;
        int sent = 0;
        int warmupSent = 0;
        int unsent = 0;
        long shiftMs = 0;
        for (int i = 0; i < n; i++) {
            long due = t0 + (long) (i * periodNs);
            long now = System.nanoTime();
            while (now < due) {
                LockSupport.parkNanos(due - now);
                now = System.nanoTime();
            }
            if (i < warmupEvents) {
                // The warm-up ends on time: a node too slow for the rate while it warms up (JIT) must not
                // carry a backlog of unsent warm-up events into the measured part, whose schedule starts
                // at its planned time whatever happened before.
                if (!inFlight.tryAcquire(Math.max(0, measureStartNs - now), TimeUnit.NANOSECONDS)) {
                    if (i < n - 1 && warmupEvents < n) {
                        // event time goes on from the first skipped event, without a jump
                        shiftMs = events.timestamps[i] - events.timestamps[warmupEvents];
                    }
                    i = warmupEvents - 1;
                    continue;
                }
                warmupSent++;
            } else if (!inFlight.tryAcquire()) {
                blockedSends++;
                // A node far slower than the rate would keep the run going for as long as its backlog
                // takes: sending ends one request timeout after the schedule, and the rest count as errors.
                if (!inFlight.tryAcquire(Math.max(0, sendDeadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    unsent = n - i;
                    break;
                }
            }
            if (shiftMs != 0) {
                events.shiftTimestamp(i, shiftMs);
            }
            long sentNs = System.nanoTime();
            if (i >= warmupEvents) {
                lag.recordValue(Math.min(ReplyTally.HIGHEST_NS, sentNs - due));
            }
            send(i, due, events.bodies[i], tally, inFlight);
            sent++;
            lastSendNs = sentNs;
        }
        reporter.senderDone();

        long deadline = System.nanoTime() + options.timeoutMs() * 1_000_000L + 10_000_000_000L;
        while (tally.completed() < sent && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        reporterThread.join(3_000); // it ends at its first tick after the schedule and the sender are done
        reporterThread.interrupt();
        reporterThread.join();
        Histogram latency = reporter.finish();

        int measured = n - warmupEvents - unsent;
        double sendSpanS = (lastSendNs - measureStartNs) / 1e9;
        double replySpanS = (tally.lastReplyNs() - measureStartNs) / 1e9;
        return new RunFigures(rate, measured > 1 && sendSpanS > 0 ? (measured - 1) / sendSpanS : 0,
                replySpanS > 0 ? latency.getTotalCount() / replySpanS : 0, n - warmupEvents, unsent, warmupEvents,
                warmupSent, sent - tally.completed(), tally, latency, reporter.warmup(), lag, blockedSends,
                reporter.loadShares(), reporter.completedInMeasuredPart(),
                node.inProcess() ? null : reporter.nodeSched(), reporter.injectorSched(),
                reporter.busiestThreads(), reporter.perSecond(), wallT0Ms + (measureStartNs - t0) / 1_000_000,
                events.bytes / (double) n);
    }

    private void send(int i, long due, byte[] body, ReplyTally tally, Semaphore inFlight) {
        try {
            client.sendJsonAsync(stream, body).whenComplete((response, failure) -> {
                long now = System.nanoTime();
                inFlight.release();
                tally.onOutcome(i, due, now, response, failure);
            });
        } catch (RuntimeException e) {
            inFlight.release();
            tally.onOutcome(i, due, System.nanoTime(), null, e);
        }
    }

    /** Per-second figures of the measured part, by reply time: replies, p99 and max in ms. */
    record Second(long replies, double p99Ms, double maxMs) {}
}
