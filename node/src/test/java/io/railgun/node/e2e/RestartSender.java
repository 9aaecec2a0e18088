package io.railgun.node.e2e;

import io.railgun.client.EventReply;
import io.railgun.client.PointRead;
import io.railgun.client.RailgunClient;
import io.railgun.client.RailgunException;
import io.railgun.engine.oracle.ExpectedValue;
import io.railgun.engine.oracle.MetricQuery;
import io.railgun.engine.oracle.OracleReply;
import io.railgun.engine.oracle.OracleStream;
import io.railgun.engine.oracle.SqlValues;
import io.railgun.engine.oracle.TaskOutcome;
import io.railgun.engine.oracle.Tolerance;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * One client thread of the restart test: sends the events of its {@link PaymentSlice} one at a
 * time ({@code POST /v1/streams/{stream}/events}), each fed once to the slice's own
 * {@link OracleStream}, and compares every reply with the oracle's. A request that gets no reply
 * (connection refused or reset, 503, timeout) is sent again, the same event, until it is answered:
 * with one request in flight, its place in the stream is the same whether the node counted it before
 * it died or counts it now, so only the duplicate flag may differ from the oracle's (true when the
 * first attempt was counted). After the first reply from each new incarnation of the node, it reads
 * every metric for a few keys ({@code GET /v1/streams/{stream}/metrics/{name}?...}) and compares them
 * with the oracle's values and stream times.
 *
 * <p>Its counters are written by its own thread and read by the test's main thread (volatile or
 * after {@link Thread#join}). The first mismatch stops it.
 */
final class RestartSender implements Runnable {
    private static final long RETRY_SLEEP_MS = 50;

    /** One incarnation of the node, as the senders see it. */
    static final class Incarnation {
        final int number;
        final long startedNanos;
        final AtomicLong firstReplyNanos = new AtomicLong();

        Incarnation(int number, long startedNanos) {
            this.number = number;
            this.startedNanos = startedNanos;
        }
    }

    /** An attempt that got no reply: when it started and ended (nanoTime), and why. */
    record Failure(long startNanos, long endNanos, int incarnation, String why) {}

    private final PaymentSlice slice;
    private final String label;
    private final OracleStream oracle;
    private final RailgunClient client;
    private final long retryBudgetMs;
    private final Supplier<Incarnation> incarnation;
    private volatile boolean stopping;
    private volatile long inFlightSinceNanos; // 0 when no request is in flight
    private volatile String problem;
    private final List<Failure> failures = new ArrayList<>();
    private int lastReadIncarnation = -1;

    volatile int events;
    volatile int replies;
    volatile int retriedEvents;
    volatile int retriedAnsweredDuplicate;
    volatile int duplicates;
    volatile int dropped;
    volatile int pointReads;
    volatile int pointReadsSkipped;
    volatile long maxRetryMs;

    RestartSender(PaymentSlice slice, String label, RailgunClient client, long retryBudgetMs, Supplier<Incarnation> incarnation) {
        this.slice = slice;
        this.label = label;
        this.oracle = slice.oracle();
        this.client = client;
        this.retryBudgetMs = retryBudgetMs;
        this.incarnation = incarnation;
    }

    /** The stream and slice, for messages: {@code pay0/1}. */
    String label() {
        return label;
    }

    /** Finish the event in flight, read every metric once more, and return. */
    void stop() {
        stopping = true;
    }

    /** The first mismatch or fault, or null. */
    String problem() {
        return problem;
    }

    long inFlightSinceNanos() {
        return inFlightSinceNanos;
    }

    /** The attempts that got no reply so far. */
    List<Failure> failures() {
        synchronized (failures) {
            return List.copyOf(failures);
        }
    }

    @Override
    public void run() {
        try {
            while (!stopping && problem == null) {
                Map<String, Object> event = slice.next();
                OracleReply expected = oracle.process(event);
                events++;
                int[] attempts = new int[1];
                EventReply reply = retrying("event " + event.get("id"), attempts, () -> client.send(slice.name(), event));
                if (reply == null) {
                    return;
                }
                replies++;
                boolean retried = attempts[0] > 1;
                if (retried) {
                    retriedEvents++;
                    if (reply.duplicate() && !expected.duplicate()) {
                        retriedAnsweredDuplicate++;
                    }
                }
                duplicates += reply.duplicate() ? 1 : 0;
                dropped += reply.droppedLate() ? 1 : 0;
                String why = compare(expected, reply, retried);
                if (why != null) {
                    fail("reply to event #" + (events - 1) + " " + show(event) + (retried ? " (sent again after no reply)" : "")
                            + " from node incarnation " + incarnation.get().number + ":\n  " + why + "\n"
                            + context(event, expected, reply));
                    return;
                }
                Incarnation now = incarnation.get();
                now.firstReplyNanos.compareAndSet(0, System.nanoTime());
                if (now.number != lastReadIncarnation) {
                    lastReadIncarnation = now.number;
                    if (!readAll(event, 1)) {
                        return;
                    }
                }
            }
            if (problem == null) {
                readAll(null, 4);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            fail("sender failed: " + t);
            throw t;
        }
    }

    /**
     * Calls {@code call} until it succeeds; null (and a problem) when an error is not retriable or
     * the retry budget runs out. {@code attempts[0]} counts the calls made.
     */
    private <T> T retrying(String what, int[] attempts, Supplier<T> call) throws InterruptedException {
        long first = System.nanoTime();
        while (true) {
            attempts[0]++;
            long start = System.nanoTime();
            inFlightSinceNanos = start;
            try {
                T result = call.get();
                inFlightSinceNanos = 0;
                if (attempts[0] > 1) {
                    maxRetryMs = Math.max(maxRetryMs, (System.nanoTime() - first) / 1_000_000);
                }
                return result;
            } catch (RailgunException e) {
                long end = System.nanoTime();
                inFlightSinceNanos = 0;
                if (!e.isRetriable()) {
                    fail(what + ": " + e.status() + " " + e.code() + ": " + e.getMessage());
                    return null;
                }
                synchronized (failures) {
                    failures.add(new Failure(start, end, incarnation.get().number, e.status() + " " + e.code()));
                }
                if (end - first > TimeUnit.MILLISECONDS.toNanos(retryBudgetMs)) {
                    fail(what + ": no reply within " + retryBudgetMs + " ms of retries (last: " + e.status() + " " + e.code() + ": "
                            + e.getMessage() + ")");
                    return null;
                }
                Thread.sleep(RETRY_SLEEP_MS);
            }
        }
    }

    /** Null when the reply equals the oracle's, else what differs. */
    private static String compare(OracleReply expected, EventReply actual, boolean retried) {
        List<String> diffs = new ArrayList<>();
        if (!String.valueOf(expected.eventId()).equals(actual.eventId())) {
            diffs.add("eventId " + actual.eventId() + ", expected " + expected.eventId());
        }
        // sent again after no reply: the first attempt may have been counted (by every task or some)
        if (actual.duplicate() != expected.duplicate() && !(retried && actual.duplicate())) {
            diffs.add("duplicate=" + actual.duplicate() + ", expected " + expected.duplicate());
        }
        if (actual.droppedLate() != expected.droppedLate()) {
            diffs.add("dropped=" + actual.droppedLate() + ", expected " + expected.droppedLate());
        }
        List<String> names = List.copyOf(expected.metrics().keySet());
        if (!names.equals(List.copyOf(actual.metrics().keySet()))) {
            diffs.add("metrics " + actual.metrics().keySet() + ", expected " + names);
        }
        for (Map.Entry<String, ExpectedValue> e : expected.metrics().entrySet()) {
            if (actual.metrics().containsKey(e.getKey())) {
                String why = Tolerance.check(e.getValue(), actual.metric(e.getKey()));
                if (why != null) {
                    diffs.add(e.getKey() + ": " + why);
                }
            }
        }
        return diffs.isEmpty() ? null : String.join("; ", diffs);
    }

    /**
     * Point reads of every metric: for the last event's key (when given) and {@code randomKeys}
     * other keys the stream uses. False when a read failed or differed.
     */
    private boolean readAll(Map<String, Object> event, int randomKeys) throws InterruptedException {
        for (String metric : oracle.metricNames()) {
            MetricQuery q = oracle.queryOf(metric);
            List<Map<String, Object>> keys = new ArrayList<>();
            if (event != null) {
                keys.add(keyOf(q, event));
            }
            for (int i = 0; i < randomKeys; i++) {
                keys.add(keyOf(q, Map.of("card", slice.someCard(), "merchant", slice.someMerchant())));
            }
            for (Map<String, Object> key : keys) {
                if (key == null) {
                    continue;
                }
                Optional<ExpectedValue> expected = oracle.read(metric, key);
                if (expected.isEmpty()) {
                    pointReadsSkipped++; // that partition has counted nothing: no stream time, no value
                    continue;
                }
                PointRead read = retrying("point read " + metric + " " + key, new int[1], () -> client.read(slice.name(), metric, key));
                if (read == null) {
                    return false;
                }
                pointReads++;
                String why = Tolerance.check(expected.get(), read.value());
                Long streamTime = oracle.streamTime(metric, key);
                if (why == null && !Objects.equals(streamTime, read.streamTime())) {
                    why = "stream time " + read.streamTime() + ", expected " + streamTime;
                }
                if (why != null) {
                    fail("point read of " + metric + " for " + key + " after node incarnation " + incarnation.get().number
                            + " started, after " + events + " events: " + why + " [expected " + SqlValues.show(expected.get().value())
                            + "]\n  oracle window:\n    " + String.join("\n    ", oracle.explain(metric, key, PaymentSlice.T0)));
                    return false;
                }
            }
        }
        return true;
    }

    /** The key row of a statement's GROUP BY for an event, or null when a value is NULL (a query string cannot say it). */
    private static Map<String, Object> keyOf(MetricQuery q, Map<String, Object> event) {
        Map<String, Object> key = new LinkedHashMap<>();
        for (String g : q.groupBy()) {
            Object v = event.get(g);
            if (v == null) {
                return null;
            }
            key.put(g, v);
        }
        return key;
    }

    private String context(Map<String, Object> event, OracleReply expected, EventReply actual) {
        StringBuilder sb = new StringBuilder();
        sb.append("  oracle tasks: ");
        for (TaskOutcome t : expected.tasks()) {
            sb.append(t.partitioner()).append('#').append(t.partition()).append(' ').append(t.status()).append(" at +")
                    .append(t.timestamp() - PaymentSlice.T0).append(" T=+").append(t.streamTime() - PaymentSlice.T0).append("; ");
        }
        sb.append("\n  expected: duplicate=").append(expected.duplicate()).append(" dropped=").append(expected.droppedLate()).append(' ');
        Map<String, String> values = new LinkedHashMap<>();
        expected.metrics().forEach((k, v) -> values.put(k, SqlValues.show(v.value())));
        sb.append(values).append("\n  actual:   duplicate=").append(actual.duplicate()).append(" dropped=").append(actual.droppedLate())
                .append(' ').append(actual.metrics()).append('\n');
        for (String metric : expected.metrics().keySet()) {
            if (!Objects.equals(SqlValues.show(expected.metrics().get(metric).value()), SqlValues.show(actual.metric(metric)))) {
                sb.append("  oracle window of ").append(metric).append(":\n    ")
                        .append(String.join("\n    ", oracle.explain(metric, event, PaymentSlice.T0))).append('\n');
                break;
            }
        }
        return sb.toString();
    }

    private static String show(Map<String, Object> event) {
        Map<String, Object> shown = new LinkedHashMap<>(event);
        shown.computeIfPresent("ts", (k, v) -> "T0+" + ((Long) v - PaymentSlice.T0));
        return shown.toString();
    }

    private void fail(String why) {
        if (problem == null) {
            problem = "[" + label + "] " + why;
        }
    }
}
