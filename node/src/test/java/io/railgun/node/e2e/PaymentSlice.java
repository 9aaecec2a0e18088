package io.railgun.node.e2e;

import io.railgun.client.LateEvents;
import io.railgun.client.StreamSpec;
import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.local.LocalStream;
import io.railgun.engine.oracle.AggregateKind;
import io.railgun.engine.oracle.AggregateSpec;
import io.railgun.engine.oracle.MetricQuery;
import io.railgun.engine.oracle.OracleStream;
import io.railgun.engine.oracle.Rows;
import io.railgun.engine.oracle.SqlExpr;
import io.railgun.engine.oracle.WindowDef;
import io.railgun.engine.routing.Partitioning;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * One slice of a payment stream of the restart test, as the node sees it (the {@link StreamSpec}
 * and statement texts sent over HTTP) and as the {@link OracleStream} sees it (the same definition
 * and statements), with a seeded generator of its events: two partitioners (card, merchant),
 * {@value #PARTITIONS} partitions, {@value #LATENESS_MS} ms lateness, 1-minute sliding windows and a
 * 10-minute filtered one; among the events exact re-sends (duplicates), events out of order within
 * the lateness, events later than it (dropped or rewritten, per stream), NULL amounts and
 * countries, bursts on one timestamp and gaps longer than every window.
 *
 * <p>Slice {@code k} of {@code n} uses only cards and merchants whose partition is {@code k} modulo
 * {@code n}, so several senders share one stream without sharing a task: each task's input is one
 * sender's events in that sender's order, which its own oracle, fed only its slice, reproduces.
 *
 * <p>Not thread-safe: owned by one {@link RestartSender}.
 */
final class PaymentSlice {
    static final int PARTITIONS = 4;
    static final long LATENESS_MS = 5_000;
    static final long MIN_DEDUP_HORIZON_MS = 3_600_000; // the node's --min-dedup-horizon
    static final long T0 = 1_700_000_000_000L;

    private static final String[] COUNTRIES = {"FR", "DE", "US", "GB", "ES", "IT", "BR"};
    private static final double[] AMOUNTS = {0.01, 1.0, 2.5, 9.99, 10.0, 12.5, 49.9, 100.0, 250.75, 1234.56};

    private final String name;
    private final LateEventPolicy lateEvents;
    private final StreamDefinition definition;
    private final List<MetricQuery> statements;
    private final Random random;
    private final Random reads; // apart, so the events do not depend on when reads happen
    private final List<Map<String, Object>> recent = new ArrayList<>();
    private final List<String> cards = new ArrayList<>();
    private final List<String> merchants = new ArrayList<>();
    private long maxTs = T0;
    private int count;

    private final String idPrefix;

    PaymentSlice(String name, LateEventPolicy lateEvents, long seed, int slice, int slices) {
        this.name = name;
        this.idPrefix = name + "-" + slice + "-";
        this.lateEvents = lateEvents;
        Map<String, FieldType> fields = new LinkedHashMap<>();
        fields.put("id", FieldType.STRING);
        fields.put("ts", FieldType.TIMESTAMP);
        fields.put("card", FieldType.STRING);
        fields.put("merchant", FieldType.STRING);
        fields.put("amount", FieldType.DOUBLE);
        fields.put("country", FieldType.STRING);
        this.definition = new StreamDefinition(name, Schema.of(fields), "id", "ts", List.of("card", "merchant"), PARTITIONS,
                LATENESS_MS, lateEvents);
        SqlExpr amount = new SqlExpr.Field("amount");
        SqlExpr country = new SqlExpr.Field("country");
        this.statements = List.of(
                new MetricQuery(List.of(new AggregateSpec(AggregateKind.COUNT_STAR, null, "card_n"),
                        new AggregateSpec(AggregateKind.SUM, amount, "card_sum"),
                        new AggregateSpec(AggregateKind.COUNT_DISTINCT, country, "card_countries")),
                        null, List.of("card"), WindowDef.sliding(60_000)),
                new MetricQuery(List.of(new AggregateSpec(AggregateKind.COUNT_STAR, null, "merchant_n"),
                        new AggregateSpec(AggregateKind.AVG, amount, "merchant_avg"),
                        new AggregateSpec(AggregateKind.MAX, amount, "merchant_max")),
                        null, List.of("merchant"), WindowDef.sliding(60_000)),
                new MetricQuery(List.of(new AggregateSpec(AggregateKind.COUNT, amount, "card_big_n"),
                        new AggregateSpec(AggregateKind.SUM, amount, "card_big_sum")),
                        new SqlExpr.Comparison(SqlExpr.ComparisonOp.GE, amount, new SqlExpr.Literal(10.0)),
                        List.of("card", "merchant"), WindowDef.sliding(600_000)));
        this.random = new Random(seed);
        this.reads = new Random(~seed);
        for (int i = 0; cards.size() < 12; i++) {
            if (partitionOf("card-" + i) % slices == slice) {
                cards.add("card-" + i);
            }
        }
        for (int i = 0; merchants.size() < 4; i++) {
            if (partitionOf("shop-" + i) % slices == slice) {
                merchants.add("shop-" + i);
            }
        }
    }

    String name() {
        return name;
    }

    LateEventPolicy lateEvents() {
        return lateEvents;
    }

    List<MetricQuery> statements() {
        return statements;
    }

    /** The stream as {@code PUT /v1/streams/{name}} creates it. */
    StreamSpec spec() {
        return StreamSpec.builder()
                .field("id", io.railgun.client.FieldType.STRING)
                .field("ts", io.railgun.client.FieldType.TIMESTAMP)
                .field("card", io.railgun.client.FieldType.STRING)
                .field("merchant", io.railgun.client.FieldType.STRING)
                .field("amount", io.railgun.client.FieldType.DOUBLE)
                .field("country", io.railgun.client.FieldType.STRING)
                .eventId("id")
                .timestamp("ts")
                .partitioners("card", "merchant")
                .partitions(PARTITIONS)
                .lateness(LATENESS_MS / 1000 + "s")
                .lateEvents(lateEvents == LateEventPolicy.DROP ? LateEvents.DROP : LateEvents.REWRITE)
                .build();
    }

    /** An oracle of this stream with its statements, routing as the node does (Kafka's partitioner on the key's text). */
    OracleStream oracle() {
        Schema schema = definition.schema();
        EventRowWriter writer = new EventRowWriter();
        OracleStream oracle = new OracleStream(definition, MIN_DEDUP_HORIZON_MS, (event, partitioner, partitions) ->
                LocalStream.partitionOf(Rows.write(writer, schema, event), schema.field(partitioner), partitions));
        for (MetricQuery q : statements) {
            oracle.addStatement(q, true);
        }
        return oracle;
    }

    /** The next event: a map from field name to Long, Double, String or null. */
    Map<String, Object> next() {
        int roll = random.nextInt(100);
        if (roll < 6 && !recent.isEmpty()) {
            return recent.get(random.nextInt(recent.size())); // an exact re-send: a duplicate (unless dropped the first time)
        }
        long ts;
        if (roll < 11) {
            ts = maxTs - LATENESS_MS - 1 - random.nextInt(30_000); // later than the lateness
        } else if (roll < 21) {
            ts = maxTs - random.nextInt((int) LATENESS_MS + 1); // out of order, within the lateness
        } else if (roll < 23) {
            ts = maxTs + 61_000 + random.nextInt(600_000); // a gap: the 1-minute windows empty
        } else if (roll < 33) {
            ts = maxTs; // same timestamp as the newest
        } else {
            ts = maxTs + 1 + random.nextInt(800);
        }
        maxTs = Math.max(maxTs, ts);
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("id", idPrefix + count++);
        e.put("ts", ts);
        // skewed: a few hot cards and merchants
        e.put("card", cards.get(random.nextInt(1 + random.nextInt(cards.size()))));
        e.put("merchant", merchants.get(random.nextInt(1 + random.nextInt(merchants.size()))));
        int a = random.nextInt(AMOUNTS.length + 3);
        Double amount = a < AMOUNTS.length ? Double.valueOf(AMOUNTS[a])
                : a == AMOUNTS.length ? null : Double.valueOf(random.nextInt(100_000) / 100.0);
        e.put("amount", amount);
        int c = random.nextInt(COUNTRIES.length + 1);
        e.put("country", c < COUNTRIES.length ? COUNTRIES[c] : null);
        recent.add(e);
        if (recent.size() > 64) {
            recent.remove(0);
        }
        return e;
    }

    /** The partition of a string partitioner value: Kafka's default partitioner on its UTF-8 bytes, as the node routes. */
    static int partitionOf(String value) {
        byte[] key = value.getBytes(StandardCharsets.UTF_8);
        return (Partitioning.murmur2(key, 0, key.length) & 0x7fffffff) % PARTITIONS;
    }

    /** A card or merchant of this slice, for point reads. */
    String someCard() {
        return cards.get(reads.nextInt(1 + reads.nextInt(cards.size())));
    }

    String someMerchant() {
        return merchants.get(reads.nextInt(1 + reads.nextInt(merchants.size())));
    }
}
