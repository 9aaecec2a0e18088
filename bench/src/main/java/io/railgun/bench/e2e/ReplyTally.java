package io.railgun.bench.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railgun.client.EventReply;
import io.railgun.client.RailgunClient;
import io.railgun.client.RailgunException;
import io.railgun.client.RawResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Recorder;

/**
 * Where the outcome of every request of one run goes, from the HTTP client's threads as replies
 * arrive: the latency of each 200 (from the event's intended send time; for a batch, from the
 * batch's, recorded once for each of its events) into a warm-up or a measured
 * {@link Recorder} (wait-free, so recording does not serialise the callbacks), and counters of what
 * is not a plain 200 — in the measured part, other statuses by code, timeouts, unreachable; in the
 * warm-up, all of them together; over the whole run, replies that say {@code "dropped": "late"} or
 * {@code "duplicate": true} and sampled replies that fail their check — so that nothing is hidden in
 * the percentiles. Every counter counts events (a batch's failure counts each of its events).
 * Measured 200s slower than the slow threshold are kept (up to
 * {@link #SLOW_CAPACITY}) with their time in the run, to find when they happened.
 *
 * <p>Thread-safe: {@link #onOutcome} is called concurrently; the readers ({@link #measured}, the
 * counters) may read at any time, and read final values once {@link #completed()} is the number
 * of requests sent.
 */
final class ReplyTally {
    static final int SLOW_CAPACITY = 200_000;
    private static final byte[] DROPPED = "\"dropped\"".getBytes();
    private static final byte[] DUPLICATE = "\"duplicate\":true".getBytes();
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Highest latency recorded: longer ones are clamped (the client times out long before). */
    static final long HIGHEST_NS = 3_600_000_000_000L;

    final Recorder warmup = new Recorder(HIGHEST_NS, 3);
    final Recorder measured = new Recorder(HIGHEST_NS, 3);
    final LongAdder late = new LongAdder();
    final LongAdder duplicates = new LongAdder();
    final LongAdder timeouts = new LongAdder();
    final LongAdder unreachable = new LongAdder();
    final LongAdder otherFailures = new LongAdder();
    final LongAdder checked = new LongAdder();
    final LongAdder checkFailures = new LongAdder();
    /** Requests of the warm-up without a 200 (any kind). */
    final LongAdder warmupErrors = new LongAdder();
    /** Non-200 statuses of the measured part, by status. */
    private final Map<Integer, LongAdder> statuses = new TreeMap<>();
    private final List<String> samples = new ArrayList<>();
    private final AtomicInteger completed = new AtomicInteger();
    private final AtomicLong completedEvents = new AtomicLong();
    private final AtomicLong lastReplyNs = new AtomicLong(Long.MIN_VALUE);
    private final long[] slowAtNs = new long[SLOW_CAPACITY];
    private final long[] slowNs = new long[SLOW_CAPACITY];
    private int slowCount;
    private long slowTotal;

    private final RailgunClient client;
    private final String[] ids;
    private final Set<String> metricNames;
    private final int warmupEvents;
    private final int checkEvery;
    private final long slowThresholdNs;
    private final long measureStartNs;

    /**
     * @param ids            the event id of each request, by index
     * @param metricNames    every metric a reply must carry
     * @param warmupEvents   requests with a lower index are the warm-up
     * @param measureStartNs intended send time of the first measured request (slow replies' times are from there)
     */
    ReplyTally(RailgunClient client, String[] ids, Set<String> metricNames, int warmupEvents, int checkEvery,
               long slowThresholdNs, long measureStartNs) {
        this.client = client;
        this.ids = ids;
        this.metricNames = metricNames;
        this.warmupEvents = warmupEvents;
        this.checkEvery = checkEvery;
        this.slowThresholdNs = slowThresholdNs;
        this.measureStartNs = measureStartNs;
    }

    /** The outcome of request {@code i}, one event: a response ({@code failure} null) or none. */
    void onOutcome(int i, long intendedNs, long nowNs, RawResponse response, Throwable failure) {
        onOutcome(i, i, 1, intendedNs, nowNs, response, failure);
    }

    /**
     * The outcome of request {@code request}, events {@code first} to {@code first + count - 1} (one
     * event, or a batch, whose every event gets the batch's latency): a response ({@code failure}
     * null) or none. Counters count events.
     */
    void onOutcome(int request, int first, int count, long intendedNs, long nowNs, RawResponse response,
                   Throwable failure) {
        long latencyNs = Math.min(HIGHEST_NS, Math.max(0, nowNs - intendedNs));
        boolean measuring = first >= warmupEvents;
        String what = count == 1 ? ids[first] : "batch " + ids[first] + ".." + ids[first + count - 1];
        try {
            if (!measuring && (failure != null || response.status() != 200)) {
                warmupErrors.add(count);
                sample("warm-up request " + what + ": " + (failure != null ? "no reply: " + failure
                        : "HTTP " + response.status() + " " + excerpt(response.bodyText())));
                return;
            }
            if (failure != null) {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure;
                if (cause instanceof RailgunException e && RailgunException.TIMEOUT.equals(e.code())) {
                    timeouts.add(count);
                } else if (cause instanceof RailgunException e && RailgunException.UNREACHABLE.equals(e.code())) {
                    unreachable.add(count);
                } else {
                    otherFailures.add(count);
                }
                sample("request " + what + ": no reply after " + latencyNs / 1_000_000 + " ms: " + cause);
                return;
            }
            if (response.status() != 200) {
                count(response.status(), count);
                sample("request " + what + ": HTTP " + response.status() + " " + excerpt(response.bodyText()));
                return;
            }
            if (count == 1) {
                (measuring ? measured : warmup).recordValue(latencyNs);
            } else {
                (measuring ? measured : warmup).recordValueWithCount(latencyNs, count);
            }
            int dropped = occurrences(response.body(), DROPPED);
            if (dropped > 0) {
                late.add(dropped);
                sample("dropped as late: " + dropped + " of " + what + " (request " + request + "), answered "
                        + latencyNs / 1_000_000 + " ms after it was due");
            }
            int duplicate = occurrences(response.body(), DUPLICATE);
            if (duplicate > 0) {
                duplicates.add(duplicate);
                sample("duplicate: " + duplicate + " of " + what + " (request " + request + ")");
            }
            if (measuring && latencyNs > slowThresholdNs) {
                slow(intendedNs - measureStartNs, latencyNs, count);
            }
            if (checkEvery > 0 && request % checkEvery == 0) {
                if (count == 1) {
                    check(first, response);
                } else {
                    checkBatch(first, count, response);
                }
            }
        } finally {
            lastReplyNs.accumulateAndGet(nowNs, Math::max);
            completedEvents.addAndGet(count);
            completed.incrementAndGet();
        }
    }

    private void check(int i, RawResponse response) {
        checked.increment();
        String problem;
        try {
            EventReply reply = client.decodeEventReply(response);
            if (!Objects.equals(reply.eventId(), ids[i])) {
                problem = "eventId " + reply.eventId() + " in the reply to " + ids[i];
            } else if (!reply.metrics().keySet().equals(metricNames)) {
                problem = "metrics " + reply.metrics().keySet() + " in the reply to " + ids[i] + ", expected "
                        + metricNames;
            } else if (!reply.droppedLate() && reply.metrics().containsValue(null)) {
                problem = "a NULL metric for counted event " + ids[i] + ": " + reply.metrics();
            } else {
                problem = null;
            }
        } catch (RuntimeException e) {
            problem = "reply to " + ids[i] + " not readable: " + e.getMessage();
        }
        if (problem != null) {
            checkFailures.increment();
            sample("check: " + problem);
        }
    }

    /** Checks every reply of a batch's array as {@link #check} checks one. */
    private void checkBatch(int first, int count, RawResponse response) {
        JsonNode array;
        try {
            array = JSON.readTree(response.body());
        } catch (IOException e) {
            checked.add(count);
            checkFailures.add(count);
            sample("check: batch reply from " + ids[first] + " not JSON: " + e.getMessage());
            return;
        }
        if (!array.isArray() || array.size() != count) {
            checked.add(count);
            checkFailures.add(count);
            sample("check: batch of " + count + " from " + ids[first] + " answered with " + (array.isArray()
                    ? array.size() + " replies" : "no array"));
            return;
        }
        for (int k = 0; k < count; k++) {
            try {
                check(first + k, new RawResponse(200, JSON.writeValueAsBytes(array.get(k)), 0));
            } catch (IOException e) {
                checked.increment();
                checkFailures.increment();
            }
        }
    }

    private synchronized void slow(long atNs, long latencyNs, int events) {
        slowTotal += events;
        if (slowCount < SLOW_CAPACITY) {
            slowAtNs[slowCount] = atNs;
            slowNs[slowCount] = latencyNs;
            slowCount++;
        }
    }

    private synchronized void count(int status, int events) {
        statuses.computeIfAbsent(status, s -> new LongAdder()).add(events);
    }

    private synchronized void sample(String message) {
        if (samples.size() < 10) {
            samples.add(message);
        }
    }

    /** How many times {@code what} occurs in {@code body}. */
    static int occurrences(byte[] body, byte[] what) {
        int n = 0;
        outer:
        for (int i = 0; i + what.length <= body.length; i++) {
            for (int j = 0; j < what.length; j++) {
                if (body[i + j] != what[j]) {
                    continue outer;
                }
            }
            n++;
            i += what.length - 1;
        }
        return n;
    }

    private static String excerpt(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }

    /** Requests with an outcome (a batch is one). */
    int completed() {
        return completed.get();
    }

    /** Events with an outcome (a batch's every event). */
    long completedEvents() {
        return completedEvents.get();
    }

    long lastReplyNs() {
        return lastReplyNs.get();
    }

    /** Non-200 statuses of the measured part: status → count. */
    synchronized Map<Integer, Long> statuses() {
        Map<Integer, Long> m = new TreeMap<>();
        statuses.forEach((k, v) -> m.put(k, v.sum()));
        return m;
    }

    synchronized List<String> samples() {
        return List.copyOf(samples);
    }

    /** Measured 200s over the slow threshold: their count, and the kept ones (time from the measured start, latency). */
    synchronized SlowReplies slowReplies() {
        return new SlowReplies(slowTotal, Arrays.copyOf(slowAtNs, slowCount),
                Arrays.copyOf(slowNs, slowCount));
    }
}
