package io.railgun.node.e2e;

import static io.railgun.node.e2e.Refusals.refused;
import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.client.EventReply;
import io.railgun.client.FieldType;
import io.railgun.client.MetricInfo;
import io.railgun.client.RailgunClient;
import io.railgun.client.StreamPutResult;
import io.railgun.client.StreamSpec;
import io.railgun.node.Node;
import io.railgun.node.NodeConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input against a real node (embedded Kafka broker, real HTTP): every mistake gets a 4xx in
 * SPEC §3's error format with a message that says what is wrong, nothing of it is applied, the node
 * keeps serving, and no accepted event is lost or counted twice: each case is wrapped in good events
 * ({@link #around}) whose COUNT(*) per card must stay exact, and the stream and metric lists are
 * compared before and after.
 */
@Tag("kafka")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BadInputTest {
    private static final String STREAM = "payments";
    private static final String EVENTS = "/v1/streams/payments/events";
    private static final String BATCH = "/v1/streams/payments/events:batch";
    private static final long MAX_BODY_BYTES = 16 * 1024;
    private static final int MAX_BATCH_EVENTS = 20;
    private static final double AMOUNT = 2.5;
    private static final String COUNTS =
            "SELECT COUNT(*) AS n, SUM(amount) AS total FROM payments GROUP BY card [RANGE UNBOUNDED]";

    @TempDir
    static Path dir;
    static Node node;
    static RailgunClient client;
    static RawHttp raw;
    /** Event time of the next good event: increasing, so no event is late. */
    static final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
    static final AtomicInteger ids = new AtomicInteger();
    /** Card -> events the node accepted for it (a 200 that was not a duplicate). */
    static final Map<String, Long> counted = new ConcurrentHashMap<>();

    @BeforeAll
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    static void startNode() {
        NodeConfig config = NodeConfig.defaults().withDataDir(dir.resolve("node")).withHttp("127.0.0.1", 0)
                .withProcessors(2).withLimits(MAX_BODY_BYTES, MAX_BATCH_EVENTS, 15_000);
        node = Node.start(config);
        client = RailgunClient.builder().baseUri(node.uri()).requestTimeout(Duration.ofSeconds(30)).build();
        raw = new RawHttp(node.uri());
        assertThat(client.createStream(STREAM, paymentsSpec())).isEqualTo(StreamPutResult.CREATED);
        assertThat(client.addMetrics(STREAM, COUNTS)).containsExactly("n", "total");
        Refusals.firstEvent(client, STREAM, good("warm-up"));
    }

    @AfterAll
    static void stopNode() {
        // the node first: a client closing its connections while the node stops can make the HTTP server wait its
        // whole drain period (request timeout + 1 s) although no request is in flight
        if (node != null) {
            node.close();
        }
        if (client != null) {
            client.close();
        }
    }

    static StreamSpec paymentsSpec() {
        return StreamSpec.builder()
                .field("id", FieldType.STRING).field("ts", FieldType.TIMESTAMP).field("card", FieldType.STRING)
                .field("merchant", FieldType.STRING).field("amount", FieldType.DOUBLE).field("mcc", FieldType.LONG)
                .field("online", FieldType.BOOLEAN)
                .eventId("id").timestamp("ts").partitioners("card").partitions(2).build();
    }

    // ------------------------------------------------------------------------------------------ events

    @Test
    void malformedJsonIsRefusedEverywhere() {
        around("malformed", card -> {
            raw.send("POST", EVENTS, "{\"id\": \"m1\", \"ts\": " + clock.get() + ", \"card\": \"" + card + "\",")
                    .assertError(400, "invalid_json", "not valid JSON", "line", "column");
            raw.send("POST", EVENTS, "{'id': 'm2', 'card': '" + card + "'}")
                    .assertError(400, "invalid_json", "not valid JSON");
            raw.send("POST", EVENTS, "{\"id\": \"m3\", \"card\": \"" + card + "\", \"amount\": 1,}")
                    .assertError(400, "invalid_json", "not valid JSON");
            raw.send("POST", EVENTS, "").assertError(400, "invalid_json", "empty");
            raw.send("POST", EVENTS, event("m4", card, "") + " " + event("m5", card, ""))
                    .assertError(400, "invalid_json", "more than one");
            raw.send("POST", EVENTS, "[" + event("m6", card, "") + "]").assertError(400, "invalid_event", "array",
                    "events:batch");
            raw.send("POST", EVENTS, event("m7", card, ""), "Content-Type", "text/plain")
                    .assertError(415, "unsupported_media_type", "application/json");

            raw.send("POST", BATCH, "[" + event("m8", card, "") + ", {\"id\": ")
                    .assertError(400, "invalid_json", "not valid JSON");
            raw.send("POST", BATCH, event("m9", card, "")).assertError(400, "invalid_batch", "array");

            raw.send("PUT", "/v1/streams/payments", "{\"fields\": {\"id\": \"string\", \"card\": \"string\"")
                    .assertError(400, "invalid_json", "not valid JSON");
            raw.send("PUT", "/v1/streams/fresh_stream", "{\"fields\": {\"id\": \"string\"}, \"eventId\": \"id\",, }")
                    .assertError(400, "invalid_json", "not valid JSON");
            raw.send("PUT", "/v1/streams/fresh_stream", "").assertError(400, "invalid_json", "empty");

            raw.send("POST", "/v1/streams/payments/metrics",
                    "{\"query\": \"SELECT COUNT(*) AS m FROM payments GROUP BY card [RANGE 1 MINUTE]\"")
                    .assertError(400, "invalid_json", "not valid JSON");
            raw.send("POST", "/v1/streams/payments/metrics", "{\"query\": SELECT}")
                    .assertError(400, "invalid_json", "not valid JSON");

            // bytes that are not UTF-8, JSON that is not JSON, nesting deep enough to hurt a recursive parser
            byte[] latin1 = ("{\"id\": \"m10\", \"ts\": " + (clock.get() + 1) + ", \"card\": \"" + card
                    + "\", \"merchant\": \"caf\u00e9\"}").getBytes(StandardCharsets.ISO_8859_1);
            raw.sendBytes("POST", EVENTS, latin1).assertError(400, "invalid_utf8", "UTF-8");
            raw.sendBytes("POST", BATCH, ("[" + new String(latin1, StandardCharsets.ISO_8859_1) + "]")
                    .getBytes(StandardCharsets.ISO_8859_1)).assertError(400, "invalid_utf8", "UTF-8");
            raw.send("POST", EVENTS, event("m11", card, ", \"amount\": NaN")).assertError(400, "invalid_json", "NaN");
            String deep = "[".repeat(5000) + "]".repeat(5000);
            // (inside an event, a nested value is refused by its field's type before its depth matters)
            raw.send("POST", EVENTS, event("m12", card, ", \"merchant\": " + deep)).assertError(400, "invalid_value",
                    "nested");
            raw.send("POST", EVENTS, deep).assertError(400, "invalid_json", "depth");
            raw.send("POST", BATCH, "[" + deep + "]").assertError(400, "invalid_json", "depth");
            raw.send("POST", BATCH, "[" + event("m13", card, ", \"merchant\": " + deep) + "]")
                    .assertError(400, "invalid_value", "events[0].merchant", "nested");
            raw.send("PUT", "/v1/streams/fresh_stream", "{\"fields\": " + deep + "}")
                    .assertError(400, "invalid_json", "depth");
            raw.send("POST", "/v1/streams/payments/metrics", "{\"query\": " + deep + "}")
                    .assertError(400, "invalid_json", "depth");
            raw.send("PUT", "/v1/streams/fresh_stream", "{\"fields\": {\"id\": \"string\"}, \"eventId\": \"id\", "
                    + "\"partitioners\": [\"id\"], \"partitioners\": [\"id\"]}")
                    .assertError(400, "invalid_json", "partitioners");
        });
    }

    @Test
    void eventTimesOutsideTheRangeAreRefusedAndNeverCounted() {
        around("range", card -> {
            String range = "0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z";
            for (String ts : List.of(Long.toString(Long.MIN_VALUE), Long.toString(Long.MAX_VALUE), "-62135596800001",
                    "253402300800000", "\"+10000-01-01T00:00:00Z\"", "\"-0001-12-31T23:59:59Z\"")) {
                raw.send("POST", EVENTS, "{\"id\": \"r1\", \"ts\": " + ts + ", \"card\": \"" + card + "\"}")
                        .assertError(400, "timestamp_out_of_range", "ts", range);
                raw.send("POST", BATCH, "[{\"id\": \"r2\", \"ts\": " + ts + ", \"card\": \"" + card + "\"}]")
                        .assertError(400, "timestamp_out_of_range", "events[0].ts", range);
            }
            // the refused ids were not remembered: sent again with a good time, they are counted, not duplicates
            Map<String, Object> again = good(card);
            again.put("id", "r1");
            assertCounted(card, client.send(STREAM, again));
        });
        // the good events around it, and r1, and nothing else: the count per card is exact
        assertThat(client.read(STREAM, "n", Map.of("card", "range")).value()).isEqualTo(5L);
    }

    @Test
    void wrongFieldTypesAreRefusedNamingTheField() {
        around("types", card -> {
            raw.send("POST", EVENTS, event("t1", card, ", \"amount\": \"12.5\""))
                    .assertError(400, "invalid_value", "amount", "double", "string");
            raw.send("POST", EVENTS, event("t2", card, ", \"mcc\": 1.5"))
                    .assertError(400, "invalid_value", "mcc", "1.5", "whole number");
            raw.send("POST", EVENTS, event("t3", card, ", \"mcc\": \"5411\""))
                    .assertError(400, "invalid_value", "mcc", "integer", "string");
            raw.send("POST", EVENTS, event("t4", card, ", \"mcc\": 99999999999999999999"))
                    .assertError(400, "invalid_value", "mcc", "out of range");
            raw.send("POST", EVENTS, event("t5", card, ", \"online\": \"yes\""))
                    .assertError(400, "invalid_value", "online", "true or false");
            raw.send("POST", EVENTS, event("t6", card, ", \"merchant\": 42"))
                    .assertError(400, "invalid_value", "merchant", "string", "quote");
            raw.send("POST", EVENTS, event("t7", card, ", \"amount\": {\"value\": 12.5}"))
                    .assertError(400, "invalid_value", "amount", "object", "nested");
            raw.send("POST", EVENTS, event("t8", card, ", \"merchant\": [\"a\", \"b\"]"))
                    .assertError(400, "invalid_value", "merchant", "array", "nested");
            raw.send("POST", EVENTS, "{\"id\": \"t9\", \"ts\": \"2024-13-45T00:00:00Z\", \"card\": \"" + card + "\"}")
                    .assertError(400, "invalid_value", "ts", "2024-13-45T00:00:00Z", "ISO-8601");
            raw.send("POST", EVENTS, "{\"id\": \"t10\", \"ts\": \"yesterday\", \"card\": \"" + card + "\"}")
                    .assertError(400, "invalid_value", "ts", "yesterday", "ISO-8601");
            // dates that do not exist are refused, not moved to the nearest valid day (before the clock: if one is
            // accepted, it does not move stream time past the other tests' events)
            raw.send("POST", EVENTS, "{\"id\": \"t16\", \"ts\": \"2023-02-30T10:00:00Z\", \"card\": \"" + card + "\"}")
                    .assertError(400, "invalid_value", "ts", "2023-02-30T10:00:00Z", "ISO-8601");
            raw.send("POST", EVENTS, "{\"id\": \"t17\", \"ts\": \"2023-02-29\", \"card\": \"" + card + "\"}")
                    .assertError(400, "invalid_value", "ts", "2023-02-29", "ISO-8601");
            raw.send("POST", EVENTS, "{\"id\": \"t11\", \"ts\": 1.5, \"card\": \"" + card + "\"}")
                    .assertError(400, "invalid_value", "ts", "whole number");
            raw.send("POST", EVENTS, "{\"id\": \"t12\", \"ts\": true, \"card\": \"" + card + "\"}")
                    .assertError(400, "invalid_value", "ts", "timestamp");
            raw.send("POST", EVENTS, "{\"id\": {\"a\": 1}, \"ts\": " + clock.get() + ", \"card\": \"" + card + "\"}")
                    .assertError(400, "invalid_value", "id", "nested");
            raw.send("POST", EVENTS, event("t13", card, ", \"amount\": 1e400"))
                    .assertError(400, "invalid_value", "amount", "out of range");
            raw.send("POST", EVENTS, "{\"id\": \"t14\", \"ts\": \"+999999999-12-31T23:59:59Z\", \"card\": \"" + card
                    + "\"}").assertError(400, "invalid_value", "ts", "out of range");
            raw.send("POST", EVENTS, "{\"id\": \"t15\", \"ts\": 1e30, \"card\": \"" + card + "\"}")
                    .assertError(400, "invalid_value", "ts", "out of range");
        });
    }

    @Test
    void anUnknownStreamIs404WhateverTheEndpoint() {
        around("unknown-stream", card -> {
            raw.send("POST", "/v1/streams/nope/events", event("u1", card, ""))
                    .assertError(404, "unknown_stream", "nope");
            raw.send("POST", "/v1/streams/nope/events:batch", "[" + event("u2", card, "") + "]")
                    .assertError(404, "unknown_stream", "nope");
            raw.get("/v1/streams/nope").assertError(404, "unknown_stream", "nope");
            raw.get("/v1/streams/nope/metrics").assertError(404, "unknown_stream", "nope");
            raw.send("POST", "/v1/streams/nope/metrics",
                    "{\"query\": \"SELECT COUNT(*) AS m FROM nope GROUP BY card [RANGE 1 MINUTE]\"}")
                    .assertError(404, "unknown_stream", "nope");
            raw.get("/v1/streams/nope/metrics/n?card=" + card).assertError(404, "unknown_stream", "nope");
            raw.delete("/v1/streams/nope/metrics/n").assertError(404, "unknown_stream", "nope");
            raw.delete("/v1/streams/nope").assertError(404, "unknown_stream", "nope");
            refused(() -> client.send("nope", good(card)), 404, "unknown_stream", "nope");
            clock.addAndGet(-1000); // that event was not sent: keep the clock where the node's stream time is
        });
    }

    @Test
    void anUnknownFieldIsRefusedWithTheStreamsFields() {
        around("unknown-field", card -> {
            raw.send("POST", EVENTS, event("f1", card, ", \"colour\": \"red\""))
                    .assertError(400, "unknown_field", "colour", "payments", "amount");
            raw.send("POST", EVENTS, event("f2", card, ", \"amount\": 1, \"AMOUNT\": 2"))
                    .assertError(400, "duplicate_field", "amount", "twice");
        });
    }

    @Test
    void aMissingEventIdIsRefusedWhetherAbsentOrNull() {
        around("missing-id", card -> {
            raw.send("POST", EVENTS, "{\"ts\": " + clock.get() + ", \"card\": \"" + card + "\", \"amount\": 1}")
                    .assertError(400, "missing_event_id", "'id'", "missing");
            raw.send("POST", EVENTS, "{\"id\": null, \"ts\": " + clock.get() + ", \"card\": \"" + card + "\"}")
                    .assertError(400, "missing_event_id", "'id'", "null");
        });
    }

    @Test
    void aMissingTimestampIsRefusedWhetherAbsentOrNull() {
        around("missing-ts", card -> {
            raw.send("POST", EVENTS, "{\"id\": \"s1\", \"card\": \"" + card + "\", \"amount\": 1}")
                    .assertError(400, "missing_timestamp", "'ts'", "missing");
            raw.send("POST", EVENTS, "{\"id\": \"s2\", \"ts\": null, \"card\": \"" + card + "\"}")
                    .assertError(400, "missing_timestamp", "'ts'", "null");
        });
    }

    @Test
    void anOversizedBodyIs413() {
        String padding = "x".repeat((int) MAX_BODY_BYTES + 100);
        around("oversized", card -> {
            String big = event("o1", card, ", \"merchant\": \"" + padding + "\"");
            raw.send("POST", EVENTS, big).assertError(413, "body_too_large", "limit", Long.toString(MAX_BODY_BYTES));
            raw.sendChunked("POST", EVENTS, big)
                    .assertError(413, "body_too_large", "limit", Long.toString(MAX_BODY_BYTES));
            // few enough events, too many bytes
            List<String> events = new ArrayList<>();
            for (int i = 0; i < MAX_BATCH_EVENTS; i++) {
                events.add(event("o2-" + i, card, ", \"merchant\": \"" + "y".repeat(1024) + "\""));
            }
            raw.send("POST", BATCH, "[" + String.join(", ", events) + "]")
                    .assertError(413, "body_too_large", "limit");
            raw.send("PUT", "/v1/streams/big_stream", "{\"fields\": {\"id\": \"string\", \"" + padding + "\": \"string\"},"
                    + " \"eventId\": \"id\", \"partitioners\": [\"id\"]}").assertError(413, "body_too_large", "limit");
            raw.send("POST", "/v1/streams/payments/metrics", "{\"query\": \"SELECT COUNT(*) AS " + padding
                    + " FROM payments GROUP BY card [RANGE 1 MINUTE]\"}").assertError(413, "body_too_large", "limit");
        });
    }

    @Test
    void aBatchLongerThanTheLimitIs413AndOneOfExactlyTheLimitIsCounted() {
        String card = "long-batch";
        around(card, c -> {
            List<String> events = new ArrayList<>();
            for (int i = 0; i <= MAX_BATCH_EVENTS; i++) {
                events.add(event("l-" + i, c, ""));
            }
            raw.send("POST", BATCH, "[" + String.join(", ", events) + "]")
                    .assertError(413, "batch_too_large", "at most " + MAX_BATCH_EVENTS);
        });
        List<Map<String, Object>> batch = new ArrayList<>();
        for (int i = 0; i < MAX_BATCH_EVENTS; i++) {
            batch.add(good(card));
        }
        assertCountedInOrder(card, client.sendBatch(STREAM, batch));
    }

    @Test
    void aBatchWithOneBadEventIsRefusedWholeNamingItsIndex() {
        String card = "batch-mid";
        List<Map<String, Object>> batch = new ArrayList<>();
        around(card, c -> {
            for (int i = 0; i < 5; i++) {
                batch.add(good(c));
            }
            Map<String, Object> bad = new LinkedHashMap<>(batch.get(2));
            bad.put("amount", "oops");
            List<Map<String, Object>> sent = new ArrayList<>(batch);
            sent.set(2, bad);
            raw.send("POST", BATCH, RawHttp.JSON.valueToTree(sent).toString())
                    .assertError(400, "invalid_value", "events[2]", "amount");
            refused(() -> client.sendBatch(STREAM, sent), 400, "invalid_value", "events[2]", "amount");

            Map<String, Object> noId = new LinkedHashMap<>(batch.get(3));
            noId.remove("id");
            sent.set(2, batch.get(2));
            sent.set(3, noId);
            refused(() -> client.sendBatch(STREAM, sent), 400, "missing_event_id", "events[3]");

            Map<String, Object> unknown = new LinkedHashMap<>(batch.get(1));
            unknown.put("colour", "red");
            sent.set(3, batch.get(3));
            sent.set(1, unknown);
            refused(() -> client.sendBatch(STREAM, sent), 400, "unknown_field", "events[1]", "colour");

            raw.send("POST", BATCH, "[" + event("b-x", c, "") + ", 42, " + event("b-y", c, "") + "]")
                    .assertError(400, "invalid_event", "events[1]", "object");
        });
        // none of the refused batches was counted: the same ids are new to the node (new times: not late)
        batch.forEach(e -> e.put("ts", clock.addAndGet(1000)));
        assertCountedInOrder(card, client.sendBatch(STREAM, batch));
    }

    // ------------------------------------------------------------------------------------------ metrics

    @Test
    void invalidSqlIs400WithPositionAndHint() {
        around("sql", card -> {
            refused(() -> client.addMetrics(STREAM, "SELECT COUNT(* AS m FROM payments GROUP BY card [RANGE 1 MINUTE]"),
                    400, "syntax_error", "line 1, column", "hint");
            refused(() -> client.addMetrics(STREAM, "SELECT COUNT(*) AS m FROM payments GROUP BY card [RANGE 1 FORTNIGHT]"),
                    400, "syntax_error", "FORTNIGHT", "column", "hint");
            refused(() -> client.addMetrics(STREAM, "SELECT MEDIAN(amount) AS m FROM payments GROUP BY card [RANGE 1 MINUTE]"),
                    400, "unknown_function", "MEDIAN", "column");
            refused(() -> client.addMetrics(STREAM, "SELECT COUNT(*) AS m FROM payments GROUP BY card"),
                    400, "syntax_error", "column");
            refused(() -> client.addMetrics(STREAM, "SELECT COUNT(*) AS m FROM other GROUP BY card [RANGE 1 MINUTE]"),
                    400, "wrong_stream", "other", "payments");
            raw.send("POST", "/v1/streams/payments/metrics", "{\"query\": \"\"}")
                    .assertError(400, "invalid_request", "query");
            raw.send("POST", "/v1/streams/payments/metrics", "{\"sql\": \"SELECT 1\"}")
                    .assertError(400, "unknown_key", "sql", "query");
            raw.send("POST", "/v1/streams/payments/metrics", "{\"query\": \"SELECT COUNT(*) AS m FROM payments GROUP BY"
                    + " card [RANGE 1 MINUTE]\", \"backfill\": \"yes\"}").assertError(400, "invalid_request", "backfill");
            refused(() -> client.addMetrics(STREAM, "SELECT COUNT(*) AS m FROM payments WHERE merchant = 'open"
                    + " GROUP BY card [RANGE 1 MINUTE]"), 400, "syntax_error", "unterminated", "column");
            String deep = "(".repeat(3000) + "amount" + ")".repeat(3000);
            refused(() -> client.addMetrics(STREAM, "SELECT SUM(" + deep + ") AS m FROM payments GROUP BY card"
                    + " [RANGE 1 MINUTE]"), 400, "syntax_error", "nested", "column");
            String longChain = "amount" + " + amount".repeat(1000);
            refused(() -> client.addMetrics(STREAM, "SELECT SUM(" + longChain + ") AS m FROM payments GROUP BY card"
                    + " [RANGE 1 MINUTE]"), 400, "syntax_error", "levels", "column");
        });
    }

    @Test
    void aMetricOnAFieldTheStreamDoesNotHaveIs400NamingIt() {
        around("no-field", card -> {
            refused(() -> client.addMetrics(STREAM, "SELECT SUM(nope) AS s FROM payments GROUP BY card [RANGE 1 MINUTE]"),
                    400, "unknown_field", "nope");
            refused(() -> client.addMetrics(STREAM,
                    "SELECT COUNT(*) AS s FROM payments WHERE nope > 1 GROUP BY card [RANGE 1 MINUTE]"), 400,
                    "unknown_field", "nope");
            refused(() -> client.addMetrics(STREAM,
                    "SELECT COUNT(*) AS s FROM payments GROUP BY card, nope [RANGE 1 MINUTE]"), 400,
                    "unknown_field", "nope", "card");
            refused(() -> client.addMetrics(STREAM, "SELECT SUM(merchant) AS s FROM payments GROUP BY card [RANGE 1 MINUTE]"),
                    400, "type_mismatch", "SUM", "numeric");
        });
    }

    @Test
    void aGroupByWithoutAPartitionerIs400NamingThePartitioners() {
        around("no-partitioner", card -> refused(() -> client.addMetrics(STREAM,
                        "SELECT COUNT(*) AS by_merchant FROM payments GROUP BY merchant [RANGE 1 MINUTE]"),
                400, "no_partitioner", "merchant", "card", "partitioner"));
    }

    @Test
    void aDuplicateMetricNameIs400AndNoneOfItsStatementIsAdded() {
        around("duplicate-metric", card -> {
            refused(() -> client.addMetrics(STREAM, "SELECT COUNT(*) AS n FROM payments GROUP BY card [RANGE 1 MINUTE]"),
                    400, "duplicate_metric", "'n'", "already exists");
            // the first aggregate is new, the second not (names are case-insensitive): neither is added
            refused(() -> client.addMetrics(STREAM,
                    "SELECT COUNT(*) AS fresh, SUM(amount) AS TOTAL FROM payments GROUP BY card [RANGE 1 MINUTE]"),
                    400, "duplicate_metric", "TOTAL");
            refused(() -> client.addMetrics(STREAM,
                    "SELECT COUNT(*) AS twin, SUM(amount) AS twin FROM payments GROUP BY card [RANGE 1 MINUTE]"),
                    400, "duplicate_metric", "twin");
        });
    }

    @Test
    void anUnknownMetricIs404OnPointReadAndDelete() {
        around("unknown-metric", card -> {
            refused(() -> client.read(STREAM, "nope", Map.of("card", card)), 404, "unknown_metric", "nope");
            refused(() -> client.deleteMetric(STREAM, "nope"), 404, "unknown_metric", "nope");
            raw.get("/v1/streams/payments/metrics/nope?card=" + card).assertError(404, "unknown_metric", "nope", "n");
            raw.delete("/v1/streams/payments/metrics/nope").assertError(404, "unknown_metric", "nope");
        });
    }

    @Test
    void aPointReadWithoutItsGroupByParameterIs400() {
        around("read-key", card -> {
            raw.get("/v1/streams/payments/metrics/n").assertError(400, "missing_key", "card");
            raw.get("/v1/streams/payments/metrics/n?merchant=m1").assertError(400, "unknown_parameter", "merchant", "card");
            raw.get("/v1/streams/payments/metrics/n?card=a&card=b").assertError(400, "duplicate_parameter", "card");
        });
    }

    // ------------------------------------------------------------------------------------------ streams

    @Test
    void invalidStreamDefinitionsAre400AndCreateNothing() {
        around("bad-definition", card -> {
            raw.send("PUT", "/v1/streams/broken", "{\"fields\": {\"id\": \"string\"}, \"eventId\": \"id\", "
                    + "\"partitioners\": [\"id\"], \"colour\": 1}").assertError(400, "unknown_key", "colour");
            raw.send("PUT", "/v1/streams/broken", "{\"fields\": {\"id\": \"strin\"}, \"eventId\": \"id\", "
                    + "\"partitioners\": [\"id\"]}").assertError(400, "invalid_field_type", "strin", "string");
            raw.send("PUT", "/v1/streams/broken", "{\"fields\": {\"id\": \"string\"}, \"eventId\": \"id\", "
                    + "\"partitioners\": [\"card\"]}").assertError(400, "unknown_field", "card");
            raw.send("PUT", "/v1/streams/broken", "{\"fields\": {\"id\": \"string\"}, \"partitioners\": [\"id\"]}")
                    .assertError(400, "invalid_stream", "eventId");
            raw.send("PUT", "/v1/streams/broken", "{\"fields\": {\"id\": \"string\"}, \"eventId\": \"id\", "
                    + "\"partitioners\": [\"id\"], \"partitions\": 0}").assertError(400, "invalid_stream", "partitions");
            raw.send("PUT", "/v1/streams/broken", "{\"fields\": {\"id\": \"string\"}, \"eventId\": \"id\", "
                    + "\"partitioners\": [\"id\"], \"partitions\": 10001}").assertError(400, "invalid_stream", "partitions");
            raw.send("PUT", "/v1/streams/broken", "{\"fields\": {\"id\": \"string\"}, \"eventId\": \"id\", "
                    + "\"partitioners\": [\"id\"], \"lateness\": \"-5s\"}").assertError(400, "invalid_stream", "lateness");
            raw.send("PUT", "/v1/streams/broken", "{\"fields\": {\"id\": \"double\"}, \"eventId\": \"id\", "
                    + "\"partitioners\": [\"id\"]}").assertError(400, "invalid_stream", "eventId", "string or long");
            raw.send("PUT", "/v1/streams/bad%20name", "{\"fields\": {\"id\": \"string\"}, \"eventId\": \"id\", "
                    + "\"partitioners\": [\"id\"]}").assertError(400, "invalid_stream_name", "bad name");
        });
    }

    @Test
    void schemaChangesAre409UnlessCompatible() {
        String name = "evolving";
        String card = "evolve";
        StreamSpec original = StreamSpec.builder()
                .field("id", FieldType.STRING).field("ts", FieldType.TIMESTAMP).field("card", FieldType.STRING)
                .field("amount", FieldType.DOUBLE)
                .eventId("id").timestamp("ts").partitioners("card").partitions(2).build();
        assertThat(client.createStream(name, original)).isEqualTo(StreamPutResult.CREATED);
        assertThat(client.addMetrics(name, "SELECT COUNT(*) AS n, SUM(amount) AS total FROM evolving GROUP BY card"
                + " [RANGE UNBOUNDED]")).containsExactly("n", "total");
        Refusals.firstEvent(client, name, evolvingEvent("warm-up", "w", null));
        for (int i = 1; i <= 3; i++) {
            EventReply r = client.send(name, evolvingEvent(card, "ev" + i, null));
            assertThat(r.metrics()).containsExactly(Map.entry("n", (long) i), Map.entry("total", i * AMOUNT));
        }
        StreamSpec stored = client.stream(name);
        List<MetricInfo> metrics = client.metrics(name);

        StreamSpec typeChanged = StreamSpec.builder()
                .field("id", FieldType.STRING).field("ts", FieldType.TIMESTAMP).field("card", FieldType.STRING)
                .field("amount", FieldType.STRING)
                .eventId("id").timestamp("ts").partitioners("card").partitions(2).build();
        refused(() -> client.createStream(name, typeChanged), 409, "incompatible_schema_change", "amount", "double",
                "string");
        StreamSpec fieldRemoved = StreamSpec.builder()
                .field("id", FieldType.STRING).field("ts", FieldType.TIMESTAMP).field("card", FieldType.STRING)
                .eventId("id").timestamp("ts").partitioners("card").partitions(2).build();
        refused(() -> client.createStream(name, fieldRemoved), 409, "incompatible_schema_change", "amount", "missing");
        refused(() -> client.createStream(name, original.toBuilder().partitions(4).build()), 409,
                "incompatible_stream_change", "partitions", "2", "4");
        refused(() -> client.createStream(name, original.toBuilder().lateness("5s").build()), 409,
                "incompatible_stream_change", "lateness");
        StreamSpec newFieldAndType = original.toBuilder().field("country", FieldType.STRING).build()
                .toBuilder().partitions(4).build();
        refused(() -> client.createStream(name, newFieldAndType), 409, "incompatible_stream_change", "partitions");
        assertThat(client.stream(name)).isEqualTo(stored);
        assertThat(client.metrics(name)).isEqualTo(metrics);
        EventReply afterRefusals = client.send(name, evolvingEvent(card, "ev4", null));
        assertThat(afterRefusals.metrics()).containsExactly(Map.entry("n", 4L), Map.entry("total", 4 * AMOUNT));

        // compatible: a new field at the end
        StreamSpec evolved = original.toBuilder().field("country", FieldType.STRING).build();
        assertThat(client.createStream(name, evolved)).isEqualTo(StreamPutResult.UPDATED);
        assertThat(client.stream(name).fields()).containsExactly(Map.entry("id", FieldType.STRING),
                Map.entry("ts", FieldType.TIMESTAMP), Map.entry("card", FieldType.STRING),
                Map.entry("amount", FieldType.DOUBLE), Map.entry("country", FieldType.STRING));
        assertThat(client.metrics(name)).isEqualTo(metrics);
        EventReply withCountry = client.send(name, evolvingEvent(card, "ev5", "FR"));
        assertThat(withCountry.metrics()).containsExactly(Map.entry("n", 5L), Map.entry("total", 5 * AMOUNT));
        EventReply withoutCountry = client.send(name, evolvingEvent(card, "ev6", null));
        assertThat(withoutCountry.metrics()).containsExactly(Map.entry("n", 6L), Map.entry("total", 6 * AMOUNT));
        assertThat(client.addMetrics(name, "SELECT COUNT(DISTINCT country) AS countries FROM evolving GROUP BY card"
                + " [RANGE UNBOUNDED]")).containsExactly("countries");
        EventReply de = client.send(name, evolvingEvent(card, "ev7", "DE"));
        assertThat(de.metrics()).containsExactly(Map.entry("n", 7L), Map.entry("total", 7 * AMOUNT),
                Map.entry("countries", 1L));
        assertThat(client.read(name, "n", Map.of("card", card)).value()).isEqualTo(7L);

        // the old definition is now a removed field
        refused(() -> client.createStream(name, original), 409, "incompatible_schema_change", "country");
        // the same definition again: 200, nothing changes
        StreamSpec current = client.stream(name);
        List<MetricInfo> currentMetrics = client.metrics(name);
        assertThat(client.createStream(name, evolved)).isEqualTo(StreamPutResult.UPDATED);
        assertThat(client.createStream(name, current)).isEqualTo(StreamPutResult.UPDATED);
        assertThat(client.stream(name)).isEqualTo(current);
        assertThat(client.metrics(name)).isEqualTo(currentMetrics);
        EventReply last = client.send(name, evolvingEvent(card, "ev8", "DE"));
        assertThat(last.duplicate()).isFalse();
        assertThat(last.metrics()).containsExactly(Map.entry("n", 8L), Map.entry("total", 8 * AMOUNT),
                Map.entry("countries", 1L));
    }

    @Test
    void thePutOfTheSameDefinitionAgainIs200AndChangesNothing() {
        around("same-put", card -> {
            StreamSpec current = client.stream(STREAM);
            assertThat(client.createStream(STREAM, current)).isEqualTo(StreamPutResult.UPDATED);
            assertThat(client.createStream(STREAM, paymentsSpec())).isEqualTo(StreamPutResult.UPDATED);
            assertThat(raw.send("PUT", "/v1/streams/payments", RawHttp.JSON.valueToTree(Map.of(
                    "fields", paymentsSpec().fields().entrySet().stream().collect(LinkedHashMap::new,
                            (m, e) -> m.put(e.getKey(), e.getValue().jsonName()), Map::putAll),
                    "eventId", "id", "timestamp", "ts", "partitioners", List.of("card"), "partitions", 2)).toString())
                    .status()).isEqualTo(200);
            assertThat(client.stream(STREAM)).isEqualTo(current);
        });
    }

    // ------------------------------------------------------------------------------------------ helpers

    /**
     * Runs {@code bad} between good events of {@code card} (two before, two after) and checks that
     * every good event is counted exactly once, that a point read agrees, that the streams and the
     * metrics of the stream are as before, and that the node still answers /health.
     */
    private static void around(String card, Consumer<String> bad) {
        Map<String, StreamSpec> streams = client.streams();
        List<MetricInfo> metrics = client.metrics(STREAM);
        sendGood(card);
        sendGood(card);
        bad.accept(card);
        sendGood(card);
        sendGood(card);
        assertThat(client.read(STREAM, "n", Map.of("card", card)).value()).as("point read of n for " + card)
                .isEqualTo(counted.get(card));
        assertThat(client.streams()).as("the streams after the refusals").isEqualTo(streams);
        assertThat(client.metrics(STREAM)).as("the metrics after the refusals").isEqualTo(metrics);
        assertThat(client.health()).isTrue();
    }

    private static void sendGood(String card) {
        assertCounted(card, client.send(STREAM, good(card)));
    }

    /** Replies to good events of one card sent in order: each counted once more. */
    private static void assertCountedInOrder(String card, List<EventReply> replies) {
        replies.forEach(r -> assertCounted(card, r));
    }

    private static void assertCounted(String card, EventReply r) {
        long n = counted.merge(card, 1L, Long::sum);
        assertThat(r.duplicate()).as("duplicate: " + r).isFalse();
        assertThat(r.droppedLate()).as("dropped: " + r).isFalse();
        assertThat(r.metrics()).as("reply to " + r.eventId())
                .containsExactly(Map.entry("n", n), Map.entry("total", n * AMOUNT));
    }

    /** A good event of the payments stream, with the next event time. */
    private static Map<String, Object> good(String card) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("id", "ok-" + ids.incrementAndGet());
        e.put("ts", clock.addAndGet(1000));
        e.put("card", card);
        e.put("merchant", "m1");
        e.put("amount", AMOUNT);
        e.put("mcc", 5411L);
        e.put("online", true);
        return e;
    }

    private static Map<String, Object> evolvingEvent(String card, String id, String country) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("id", id);
        e.put("ts", clock.addAndGet(1000));
        e.put("card", card);
        e.put("amount", AMOUNT);
        if (country != null) {
            e.put("country", country);
        }
        return e;
    }

    /** A payments event as JSON text that would be valid but for {@code extra} (more members, with a leading comma). */
    private static String event(String id, String card, String extra) {
        return "{\"id\": \"" + id + "\", \"ts\": " + (clock.get() + 1) + ", \"card\": \"" + card + "\"" + extra + "}";
    }
}
