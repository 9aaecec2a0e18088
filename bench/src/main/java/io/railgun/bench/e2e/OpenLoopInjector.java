package io.railgun.bench.e2e;

import io.railgun.client.RailgunClient;
import io.railgun.client.RawResponse;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * The open-loop injector: request {@code i} is due at {@code t0 + i / rate}, whatever happened to
 * the ones before it, and its latency is reply time − due time. With {@code --batch N} a request is
 * a batch of N events ({@code POST .../events:batch}, rate/N requests per second, batch {@code i}
 * due at {@code t0 + i N / rate}): each of its events gets the batch's latency, reply time − due
 * time of the batch, i.e. of its first event — the events of a batch are sent together when the
 * first is due, so none waits for the batch to fill; an application that did wait would add up to
 * N / rate to the later ones. A reply that is slow does not slow
 * the schedule down (no coordinated omission: the requests that would have been sent meanwhile are
 * sent, or, when every connection is taken or the injector itself is late, sent late and measured
 * from when they were due). Each request is the event's pre-serialised JSON through {@link
 * RailgunClient#sendJsonAsync} or a {@link Poster} (a batch: the bodies joined into a JSON array); outcomes go to a {@link ReplyTally} from the client's threads.
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
    private final NodeJvm jvm;
    private final Poster poster;

    /**
     * @param poster sends every request (single events or batches, by {@code --batch}), or null: single
     *               events through {@code client} (the JDK client; batches need a poster)
     */
    OpenLoopInjector(RailgunClient client, String stream, E2eOptions options, NodeUnderTest node, NodeJvm jvm,
                     Poster poster) {
        this.client = client;
        this.stream = stream;
        this.options = options;
        this.node = node;
        this.jvm = jvm;
        this.poster = poster;
    }

    /**
     * Sends {@code events} at {@code rate}, the first {@code warmupEvents} as the warm-up, and returns the
     * figures of the measured part.
     */
    RunFigures run(double rate, JsonPayments events, int warmupEvents, Set<String> metricNames)
            throws InterruptedException {
        int n = events.size();
        int batch = options.batch();
        if (warmupEvents % batch != 0) {
            throw new IllegalArgumentException("the warm-up is not a whole number of batches");
        }
        int requests = (n + batch - 1) / batch;
        int warmupRequests = warmupEvents / batch;
        double periodNs = 1e9 * batch / rate;
        long t0 = System.nanoTime() + 200_000_000L;
        long measureStartNs = t0 + Math.round(warmupRequests * periodNs);
        long scheduleEndNs = t0 + Math.round(requests * periodNs);
        long wallT0Ms = System.currentTimeMillis() + (t0 - System.nanoTime()) / 1_000_000;
        ReplyTally tally = new ReplyTally(client, events.ids, metricNames, warmupEvents, options.checkEvery(),
                Math.round(options.slowMs() * 1e6), measureStartNs);
        Semaphore inFlight = new Semaphore(options.connections());
        ProgressReporter reporter = new ProgressReporter(tally, node, jvm, t0, measureStartNs, scheduleEndNs,
                options.connections(), inFlight);
        Thread reporterThread = new Thread(reporter, "e2e-progress");
        reporterThread.setDaemon(true);
        reporterThread.start();

        Histogram lag = new Histogram(ReplyTally.HIGHEST_NS, 3);
        long sendDeadlineNs = scheduleEndNs + options.timeoutMs() * 1_000_000L;
        long blockedSends = 0;
        long lastSendNs = t0;
        int sentRequests = 0;
        int measuredRequestsSent = 0;
        long sentEvents = 0;
        int warmupSent = 0;
        int unsent = 0;
        long shiftMs = 0;
        for (int r = 0; r < requests; r++) {
            int first = r * batch;
            int count = Math.min(batch, n - first);
            long due = t0 + (long) (r * periodNs);
            long now = System.nanoTime();
            while (now < due) {
                LockSupport.parkNanos(due - now);
                now = System.nanoTime();
            }
            if (r < warmupRequests) {
                // The warm-up ends on time: a node too slow for the rate while it warms up (JIT) must not
                // carry a backlog of unsent warm-up events into the measured part, whose schedule starts
                // at its planned time whatever happened before.
                if (!inFlight.tryAcquire(Math.max(0, measureStartNs - now), TimeUnit.NANOSECONDS)) {
                    if (warmupEvents < n) {
                        // event time goes on from the first skipped event, without a jump
                        shiftMs = events.timestamps[first] - events.timestamps[warmupEvents];
                    }
                    r = warmupRequests - 1;
                    continue;
                }
                warmupSent += count;
            } else if (!inFlight.tryAcquire()) {
                blockedSends++;
                // A node far slower than the rate would keep the run going for as long as its backlog
                // takes: sending ends one request timeout after the schedule, and the rest count as errors.
                if (!inFlight.tryAcquire(Math.max(0, sendDeadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    unsent = n - first;
                    break;
                }
            }
            if (shiftMs != 0) {
                for (int i = first; i < first + count; i++) {
                    events.shiftTimestamp(i, shiftMs);
                }
            }
            long sentNs = System.nanoTime();
            if (r >= warmupRequests) {
                lag.recordValue(Math.min(ReplyTally.HIGHEST_NS, sentNs - due));
                measuredRequestsSent++;
            }
            send(r, first, count, due, events, tally, inFlight);
            sentRequests++;
            sentEvents += count;
            lastSendNs = sentNs;
        }
        reporter.senderDone();

        long deadline = System.nanoTime() + options.timeoutMs() * 1_000_000L + 10_000_000_000L;
        while (tally.completed() < sentRequests && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        reporterThread.join(3_000); // it ends at its first tick after the schedule and the sender are done
        reporterThread.interrupt();
        reporterThread.join();
        Histogram latency = reporter.finish();

        double sendSpanS = (lastSendNs - measureStartNs) / 1e9;
        double replySpanS = (tally.lastReplyNs() - measureStartNs) / 1e9;
        // events sent per second over the measured part: the batches from the first to the last one sent
        double achieved = measuredRequestsSent > 1 && sendSpanS > 0 ? (measuredRequestsSent - 1) * batch / sendSpanS
                : 0;
        return new RunFigures(rate, batch, achieved, replySpanS > 0 ? latency.getTotalCount() / replySpanS : 0,
                n - warmupEvents, unsent, warmupEvents, warmupSent, (int) (sentEvents - tally.completedEvents()), tally,
                latency, reporter.warmup(), lag, blockedSends, reporter.loadShares(),
                reporter.completedInMeasuredPart(), node.inProcess() ? null : reporter.nodeSched(),
                reporter.injectorSched(), reporter.busiestThreads(), reporter.allocation(), reporter.perSecond(),
                wallT0Ms + (measureStartNs - t0) / 1_000_000, events.bytes / (double) n);
    }

    private void send(int r, int first, int count, long due, JsonPayments events, ReplyTally tally,
                      Semaphore inFlight) {
        try {
            CompletableFuture<RawResponse> reply = poster == null
                    ? client.sendJsonAsync(stream, events.bodies[first])
                    : poster.post(options.batch() > 1 ? BatchBody.of(events.bodies, first, count) : events.bodies[first]);
            reply.whenComplete((response, failure) -> {
                long now = System.nanoTime();
                inFlight.release();
                tally.onOutcome(r, first, count, due, now, response, failure);
            });
        } catch (RuntimeException e) {
            inFlight.release();
            tally.onOutcome(r, first, count, due, System.nanoTime(), null, e);
        }
    }

    /** Per-second figures of the measured part, by reply time: replies, p99 and max in ms. */
    record Second(long replies, double p99Ms, double maxMs) {}
}
