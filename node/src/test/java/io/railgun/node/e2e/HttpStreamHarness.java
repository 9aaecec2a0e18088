package io.railgun.node.e2e;

import io.railgun.client.EventReply;
import io.railgun.client.FieldType;
import io.railgun.client.LateEvents;
import io.railgun.client.RailgunClient;
import io.railgun.client.RailgunException;
import io.railgun.client.StreamSpec;
import io.railgun.engine.reply.StreamReply;
import io.railgun.engine.oracle.AggregateSpec;
import io.railgun.engine.oracle.EngineUnderTest;
import io.railgun.engine.oracle.MetricQuery;
import io.railgun.engine.oracle.OracleStream;
import io.railgun.engine.oracle.StreamCase;
import io.railgun.engine.schema.Field;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.StreamDefinition;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.utils.Utils;

/**
 * Runs exactness cases against a running node through its HTTP API, with the Java client: each
 * {@link #open} creates a fresh stream (a unique name, so a case can run again while shrinking),
 * adds the statements with backfill, sends the events and answers point reads; {@code close}
 * deletes the stream, so its tasks leave the node.
 *
 * <p>Events go one request each, or, with a batch size above 1, through {@code events:batch}: the
 * harness knows the case's events, so when the runner asks for the reply of an event it sends that
 * event and up to {@code batchSize - 1} following ones (never past a metric removal) and hands out
 * the replies one by one, in order. Every reply is still checked on its own.
 *
 * <p>The case's stream name (the generator's {@code payments}) is replaced by the unique one in the
 * stream definition and in each statement's {@code FROM}. Events go out as the oracle's maps (Long,
 * Double, String, Boolean, null), timestamps as JSON numbers; a reply comes back as the engine's
 * {@link StreamReply} for the runner to compare.
 *
 * <p>The oracle is told Kafka's routing independently of the node's code: the record key is the
 * partitioner value's text in UTF-8, its partition {@code toPositive(murmur2(key)) % partitions}
 * (Kafka's {@link Utils}), NULL to partition 0 (docs/node.md, "Records").
 *
 * <p>Used from the test thread only: one case at a time.
 */
final class HttpStreamHarness implements EngineUnderTest.Harness {
    private static final AtomicInteger STREAMS = new AtomicInteger();

    private final RailgunClient client;
    private final String prefix;
    private final int batchSize;

    /**
     * @param prefix    start of the stream names, e.g. {@code exact_} (a letter first)
     * @param batchSize most events per {@code events:batch} request; 1 sends each event on its own
     */
    HttpStreamHarness(RailgunClient client, String prefix, int batchSize) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be at least 1");
        }
        this.client = client;
        this.prefix = prefix;
        this.batchSize = batchSize;
    }

    int batchSize() {
        return batchSize;
    }

    @Override
    public EngineUnderTest open(StreamCase c, boolean freshRowBuffers) {
        // freshRowBuffers is an in-process concern: every HTTP request carries its own JSON
        StreamDefinition d = c.definition();
        String name = prefix + STREAMS.incrementAndGet();
        StreamSpec spec = spec(d);
        client.createStream(name, spec);
        checkRoundTrip(name, spec);
        return new HttpStream(name, c, groupByOf(c));
    }

    @Override
    public OracleStream.Router router(StreamCase c) {
        return HttpStreamHarness::kafkaPartition;
    }

    /** Kafka's default partitioner on the partitioner value's text; NULL and single partitions to 0. */
    static int kafkaPartition(Map<String, Object> row, String partitioner, int partitions) {
        Object v = row.get(partitioner.toLowerCase(Locale.ROOT));
        if (v == null || partitions == 1) {
            return 0;
        }
        byte[] key = String.valueOf(v).getBytes(StandardCharsets.UTF_8);
        return Utils.toPositive(Utils.murmur2(key)) % partitions;
    }

    /** The client's form of a stream definition: fields in order, durations in milliseconds. */
    static StreamSpec spec(StreamDefinition d) {
        StreamSpec.Builder b = StreamSpec.builder();
        for (Field f : d.schema().fields()) {
            b.field(f.name(), FieldType.valueOf(f.type().name()));
        }
        b.eventId(d.eventIdField()).timestamp(d.timestampField()).partitioners(d.partitioners()).partitions(d.partitions())
                .lateness(d.latenessMs() + "ms")
                .lateEvents(d.lateEvents() == LateEventPolicy.DROP ? LateEvents.DROP : LateEvents.REWRITE);
        if (d.retentionMs() > 0) {
            b.retention(d.retentionMs() + "ms");
        }
        return b.build();
    }

    /** The node must describe the stream as it was sent: otherwise the oracle checks another stream. */
    private void checkRoundTrip(String name, StreamSpec sent) {
        StreamSpec got = client.stream(name);
        boolean same = List.copyOf(got.fields().entrySet()).equals(List.copyOf(sent.fields().entrySet()))
                && got.eventId().equals(sent.eventId()) && got.timestamp().equals(sent.timestamp())
                && got.partitioners().equals(sent.partitioners()) && got.partitions() == sent.partitions()
                && millis(got.lateness()) == millis(sent.lateness()) && got.lateEvents() == sent.lateEvents();
        if (!same) {
            throw new IllegalStateException("stream " + name + " was created as " + sent + " but the node describes it as "
                    + got);
        }
    }

    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d|w)");

    /** A duration as the node writes it back ("0s", "1500ms", "5m" ...) in milliseconds. */
    private static long millis(String duration) {
        Matcher m = DURATION.matcher(duration == null ? "0s" : duration);
        if (!m.matches()) {
            throw new IllegalStateException("unexpected duration " + duration);
        }
        long unit = switch (m.group(2)) {
            case "ms" -> 1;
            case "s" -> 1_000;
            case "m" -> 60_000;
            case "h" -> 3_600_000;
            case "d" -> 86_400_000;
            default -> 7 * 86_400_000L;
        };
        return Long.parseLong(m.group(1)) * unit;
    }

    /** Each metric's GROUP BY fields: a point read names those and no others. */
    private static Map<String, List<String>> groupByOf(StreamCase c) {
        Map<String, List<String>> out = new HashMap<>();
        for (MetricQuery q : c.statements()) {
            for (AggregateSpec a : q.aggregates()) {
                out.put(a.alias(), q.groupBy());
            }
        }
        return out;
    }

    /** One case's stream on the node. */
    private final class HttpStream implements EngineUnderTest {
        private final String name;
        private final StreamCase c;
        private final Pattern from;
        private final Map<String, List<String>> groupBy;
        private final ArrayDeque<EventReply> batched = new ArrayDeque<>();
        private int next; // index in the case of the event the runner sends next

        HttpStream(String name, StreamCase c, Map<String, List<String>> groupBy) {
            this.name = name;
            this.c = c;
            this.from = Pattern.compile("(?i)\\bFROM(\\s+)" + Pattern.quote(c.definition().name()) + "\\b");
            this.groupBy = groupBy;
        }

        @Override
        public List<String> addStatement(String sql) {
            Matcher m = from.matcher(sql);
            if (!m.find()) {
                throw new IllegalStateException("no FROM <stream> to rename in " + sql);
            }
            String renamed = sql.substring(0, m.start()) + "FROM" + m.group(1) + name + sql.substring(m.end());
            return client.addMetrics(name, renamed, true);
        }

        @Override
        public boolean removeMetric(String metric) {
            try {
                client.deleteMetric(name, metric);
                return true;
            } catch (RailgunException e) {
                if (e.status() == 404) {
                    return false;
                }
                throw e;
            }
        }

        @Override
        public StreamReply process(Map<String, Object> event) {
            EventReply r = batchSize == 1 ? client.send(name, event) : fromBatch(event);
            next++;
            return new StreamReply(r.eventId(), r.duplicate(), r.droppedLate(), r.metrics());
        }

        private EventReply fromBatch(Map<String, Object> event) {
            if (next >= c.events().size() || c.events().get(next) != event) {
                throw new IllegalStateException("the runner sent an event out of the case's order (expected #" + next + ")");
            }
            if (batched.isEmpty()) {
                int end = Math.min(c.events().size(), next + batchSize);
                for (StreamCase.Removal r : c.removals()) {
                    if (r.beforeEvent() > next && r.beforeEvent() < end) {
                        end = r.beforeEvent();
                    }
                }
                List<EventReply> replies = client.sendBatch(name, c.events().subList(next, end));
                if (replies.size() != end - next) {
                    throw new IllegalStateException("a batch of " + (end - next) + " events got " + replies.size() + " replies");
                }
                batched.addAll(replies);
            }
            return batched.poll();
        }

        @Override
        public Object read(String metric, Map<String, Object> keyRow) {
            Map<String, Object> lower = new HashMap<>();
            keyRow.forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), v));
            Map<String, Object> key = new LinkedHashMap<>();
            for (String f : groupBy.get(metric)) {
                key.put(f, lower.get(f));
            }
            return client.read(name, metric, key).value();
        }

        @Override
        public void close() {
            client.deleteStream(name);
        }
    }
}
