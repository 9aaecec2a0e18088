package io.railgun.node.http;

import static io.railgun.node.http.Codec.refused;
import static io.railgun.node.http.Codec.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.schema.StreamDefinition;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventJsonTest {
    static final StreamDefinition PAYMENTS = StreamJsonTest.parse("payments", StreamJsonTest.SPEC_EXAMPLE);
    // fields: 0 id string, 1 ts timestamp, 2 card, 3 merchant, 4 amount double, 5 country, 6 online boolean, 7 mcc long
    static final StreamDefinition NO_TIME = StreamJsonTest.parse("counts",
            "{\"fields\": {\"n\": \"long\", \"card\": \"string\"}, \"eventId\": \"n\", \"partitioners\": [\"card\"]}");

    private final EventJson codec = new EventJson();

    private EventRow row(StreamDefinition stream, String json) {
        byte[] body = utf8(json);
        int length = codec.readEvent(stream, body, body.length);
        byte[] copy = Arrays.copyOf(codec.writer().buffer(), length);
        return new EventRow().wrap(copy, 0);
    }

    private List<byte[]> batch(StreamDefinition stream, String json, int max) {
        byte[] body = utf8(json);
        return codec.readBatch(stream, body, body.length, max);
    }

    @Test
    void writesEveryType() {
        EventRow r = row(PAYMENTS, "{\"id\": \"e1\", \"ts\": 1700000000000, \"card\": \"c1\", \"merchant\": \"m€\", "
                + "\"amount\": 12.5, \"country\": \"FR\", \"online\": true, \"mcc\": 5411}");
        assertThat(r.getString(0)).isEqualTo("e1");
        assertThat(r.getLong(1)).isEqualTo(1_700_000_000_000L);
        assertThat(r.getString(2)).isEqualTo("c1");
        assertThat(r.getString(3)).isEqualTo("m€");
        assertThat(r.getDouble(4)).isEqualTo(12.5);
        assertThat(r.getString(5)).isEqualTo("FR");
        assertThat(r.getBoolean(6)).isTrue();
        assertThat(r.getLong(7)).isEqualTo(5411);
        assertThat(r.schemaId()).isEqualTo(PAYMENTS.schema().id());
    }

    @Test
    void nullAndAbsentAreNull() {
        EventRow r = row(PAYMENTS, "{\"id\": \"e1\", \"ts\": 1, \"amount\": null, \"online\": false}");
        assertThat(r.isNull(0)).isFalse();
        assertThat(r.isNull(2)).isTrue();
        assertThat(r.isNull(4)).isTrue();
        assertThat(r.isNull(6)).isFalse();
        assertThat(r.getBoolean(6)).isFalse();
        assertThat(r.isNull(7)).isTrue();
    }

    @Test
    void keyOrderDoesNotMatterAndNamesAreCaseInsensitive() {
        EventRow r = row(PAYMENTS, "{\"MCC\": 1, \"Amount\": 2, \"ts\": 3, \"ID\": \"x\"}");
        assertThat(r.getString(0)).isEqualTo("x");
        assertThat(r.getLong(1)).isEqualTo(3);
        assertThat(r.getDouble(4)).isEqualTo(2.0);
        assertThat(r.getLong(7)).isEqualTo(1);
    }

    @Test
    void longTakesIntegersAndWholeDecimalsOnly() {
        assertThat(row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"mcc\": 3.0}").getLong(7)).isEqualTo(3);
        assertThat(row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"mcc\": 1e3}").getLong(7)).isEqualTo(1000);
        assertThat(row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"mcc\": -0.0}").getLong(7)).isZero();
        assertThat(row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"mcc\": 9223372036854775807}").getLong(7))
                .isEqualTo(Long.MAX_VALUE);
        assertThat(row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"mcc\": -9223372036854775808}").getLong(7))
                .isEqualTo(Long.MIN_VALUE);
        refused(() -> row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"mcc\": 1.5}"), 400, "invalid_value")
                .hasMessage("mcc: 1.5 is not a whole number; long field 'mcc' takes integers");
        refused(() -> row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"mcc\": 9223372036854775808}"), 400, "invalid_value")
                .hasMessageStartingWith("mcc: 9223372036854775808 is out of range for a 64-bit integer");
        refused(() -> row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"mcc\": 1e19}"), 400, "invalid_value")
                .hasMessageContaining("out of range");
        refused(() -> row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"mcc\": 1e-400}"), 400, "invalid_value")
                .hasMessageContaining("not a whole number");
        refused(() -> row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"mcc\": \"5411\"}"), 400, "invalid_value")
                .hasMessage("mcc: expected an integer for long field 'mcc', got a string");
        refused(() -> row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"mcc\": true}"), 400, "invalid_value")
                .hasMessageContaining("got a boolean");
    }

    @Test
    void timestampTakesEpochMillisOrIso8601() {
        assertThat(row(PAYMENTS, "{\"id\": \"a\", \"ts\": \"2024-01-01T10:00:00Z\"}").getLong(1))
                .isEqualTo(Instant.parse("2024-01-01T10:00:00Z").toEpochMilli());
        assertThat(row(PAYMENTS, "{\"id\": \"a\", \"ts\": \"2024-01-01T12:00:00.123+02:00\"}").getLong(1))
                .isEqualTo(Instant.parse("2024-01-01T10:00:00.123Z").toEpochMilli());
        // sub-millisecond digits are truncated towards the past, also before 1970
        assertThat(row(PAYMENTS, "{\"id\": \"a\", \"ts\": \"2024-01-01T10:00:00.123999Z\"}").getLong(1))
                .isEqualTo(Instant.parse("2024-01-01T10:00:00.123Z").toEpochMilli());
        assertThat(row(PAYMENTS, "{\"id\": \"a\", \"ts\": \"1969-12-31T23:59:59.9995Z\"}").getLong(1)).isEqualTo(-1);
        assertThat(row(PAYMENTS, "{\"id\": \"a\", \"ts\": -5}").getLong(1)).isEqualTo(-5);
        assertThat(row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1.7e12}").getLong(1)).isEqualTo(1_700_000_000_000L);
        refused(() -> row(PAYMENTS, "{\"id\": \"a\", \"ts\": \"2024-01-01 10:00\"}"), 400, "invalid_value")
                .hasMessageStartingWith("ts: \"2024-01-01 10:00\" is not an ISO-8601 timestamp")
                .hasMessageContaining("2024-01-01T10:00:00Z");
        // without an offset: UTC; other offset forms; a date alone is its midnight UTC
        assertThat(row(PAYMENTS, "{\"id\": \"a\", \"ts\": \"2024-01-01T10:00:00\"}").getLong(1))
                .isEqualTo(Instant.parse("2024-01-01T10:00:00Z").toEpochMilli());
        assertThat(row(PAYMENTS, "{\"id\": \"a\", \"ts\": \"2024-01-01T10:00\"}").getLong(1))
                .isEqualTo(Instant.parse("2024-01-01T10:00:00Z").toEpochMilli());
        assertThat(row(PAYMENTS, "{\"id\": \"a\", \"ts\": \"2024-01-01T12:00:00+0200\"}").getLong(1))
                .isEqualTo(Instant.parse("2024-01-01T10:00:00Z").toEpochMilli());
        assertThat(row(PAYMENTS, "{\"id\": \"a\", \"ts\": \"2024-01-01T12:00+02\"}").getLong(1))
                .isEqualTo(Instant.parse("2024-01-01T10:00:00Z").toEpochMilli());
        assertThat(row(PAYMENTS, "{\"id\": \"a\", \"ts\": \"2024-01-01\"}").getLong(1))
                .isEqualTo(Instant.parse("2024-01-01T00:00:00Z").toEpochMilli());
        refused(() -> row(PAYMENTS, "{\"id\": \"a\", \"ts\": \"yesterday\"}"), 400, "invalid_value")
                .hasMessageContaining("without one it is UTC");
        refused(() -> row(PAYMENTS, "{\"id\": \"a\", \"ts\": \"+1000000000-01-01T00:00:00Z\"}"), 400, "invalid_value");
        refused(() -> row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1.5}"), 400, "invalid_value")
                .hasMessageContaining("timestamp field 'ts' takes integers");
        refused(() -> row(PAYMENTS, "{\"id\": \"a\", \"ts\": false}"), 400, "invalid_value")
                .hasMessageContaining("epoch milliseconds");
    }

    @Test
    void doubleTakesAnyFiniteNumber() {
        assertThat(row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"amount\": 12}").getDouble(4)).isEqualTo(12.0);
        assertThat(row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"amount\": -1.5e-7}").getDouble(4)).isEqualTo(-1.5e-7);
        assertThat(row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"amount\": 0.1}").getDouble(4)).isEqualTo(0.1);
        assertThat(row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"amount\": 123456789012345678901234567890}").getDouble(4))
                .isEqualTo(1.2345678901234568e29);
        refused(() -> row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"amount\": 1e400}"), 400, "invalid_value")
                .hasMessageContaining("amount: 1e400 is out of range for a double");
        refused(() -> row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"amount\": \"12.5\"}"), 400, "invalid_value")
                .hasMessage("amount: expected a number for double field 'amount', got a string");
        // NaN is not JSON
        refused(() -> row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"amount\": NaN}"), 400, "invalid_json");
    }

    @Test
    void stringAndBooleanAreStrict() {
        refused(() -> row(PAYMENTS, "{\"id\": 42, \"ts\": 1}"), 400, "invalid_value")
                .hasMessage("id: expected a string for string field 'id', got an integer (quote it: \"42\")");
        refused(() -> row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"online\": \"true\"}"), 400, "invalid_value")
                .hasMessage("online: expected true or false for boolean field 'online', got a string");
        refused(() -> row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"online\": 1}"), 400, "invalid_value");
        assertThat(row(PAYMENTS, "{\"id\": \"\", \"ts\": 1, \"card\": \"\\u00e9\\\"\\n\"}").getString(2)).isEqualTo("é\"\n");
        assertThat(row(PAYMENTS, "{\"id\": \"\uD83D\uDE00\", \"ts\": 1}").getString(0)).isEqualTo("\uD83D\uDE00");
    }

    @Test
    void nestedValuesAreRefused() {
        refused(() -> row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"card\": {\"n\": 1}}"), 400, "invalid_value")
                .hasMessage("card: expected a string for string field 'card', got an object; nested objects and arrays "
                        + "are not supported");
        refused(() -> row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"amount\": [1]}"), 400, "invalid_value")
                .hasMessageContaining("got an array");
    }

    @Test
    void eventIdMayBeANumberWhenDeclaredLong() {
        EventRow r = row(NO_TIME, "{\"n\": 42, \"card\": \"c\"}");
        assertThat(r.getLong(0)).isEqualTo(42);
        refused(() -> row(NO_TIME, "{\"n\": \"42\", \"card\": \"c\"}"), 400, "invalid_value");
    }

    @Test
    void refusesUnknownFieldsNamingTheStreamsFields() {
        refused(() -> row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"amuont\": 1}"), 400, "unknown_field")
                .hasMessage("amuont: stream 'payments' has no field 'amuont'; did you mean amount? its fields are id, ts, "
                        + "card, merchant, amount, country, online, mcc (add new fields with PUT /v1/streams/payments)");
    }

    @Test
    void refusesDuplicateKeysIncludingCaseVariants() {
        refused(() -> row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"card\": \"x\", \"Card\": \"y\"}"), 400, "duplicate_field")
                .hasMessageContaining("field 'card' is given twice");
        refused(() -> row(PAYMENTS, "{\"id\": \"a\", \"id\": \"b\", \"ts\": 1}"), 400, "duplicate_field");
    }

    @Test
    void requiresTheEventIdAndTheTimestamp() {
        refused(() -> row(PAYMENTS, "{\"ts\": 1}"), 400, "missing_event_id")
                .hasMessageStartingWith("id: the event id is missing or null");
        refused(() -> row(PAYMENTS, "{\"id\": null, \"ts\": 1}"), 400, "missing_event_id");
        refused(() -> row(PAYMENTS, "{\"id\": \"a\"}"), 400, "missing_timestamp")
                .hasMessageStartingWith("ts: the event time is missing or null");
        refused(() -> row(PAYMENTS, "{\"id\": \"a\", \"ts\": null}"), 400, "missing_timestamp");
        // a stream without event-time field takes events without one
        assertThat(row(NO_TIME, "{\"n\": 1}").isNull(1)).isTrue();
    }

    @Test
    void checksTheShapeOfSingleEvents() {
        refused(() -> row(NO_TIME, ""), 400, "invalid_json").hasMessageContaining("empty");
        refused(() -> row(NO_TIME, " \n"), 400, "invalid_json");
        refused(() -> row(NO_TIME, "{\"n\": "), 400, "invalid_json")
                .hasMessageContaining("not valid JSON at line 1");
        refused(() -> row(NO_TIME, "[{}]"), 400, "invalid_event").hasMessageContaining("events:batch");
        refused(() -> row(NO_TIME, "\"x\""), 400, "invalid_event").hasMessageContaining("got a string");
        refused(() -> row(NO_TIME, "{\"n\": 1} {}"), 400, "invalid_json").hasMessageContaining("more than one");
        refused(() -> row(NO_TIME, "{\"n\": 1}x"), 400, "invalid_json");
    }

    @Test
    void convertsBatchesInOrder() {
        List<byte[]> rows = batch(PAYMENTS, "[{\"id\": \"a\", \"ts\": 1, \"amount\": 1}, {\"id\": \"b\", \"ts\": 2}, "
                + "{\"id\": \"c\", \"ts\": \"1970-01-01T00:00:00.003Z\", \"card\": \"x\"}]", 10);
        assertThat(rows).hasSize(3);
        assertThat(rows).extracting(r -> new EventRow().wrap(r, 0).getString(0)).containsExactly("a", "b", "c");
        assertThat(rows).extracting(r -> new EventRow().wrap(r, 0).getLong(1)).containsExactly(1L, 2L, 3L);
        EventRow first = new EventRow().wrap(rows.get(0), 0);
        assertThat(first.length()).isEqualTo(rows.get(0).length);
        assertThat(first.getDouble(4)).isEqualTo(1.0);
        assertThat(new EventRow().wrap(rows.get(1), 0).isNull(4)).isTrue();
        assertThat(batch(PAYMENTS, "[]", 10)).isEmpty();
    }

    @Test
    void batchErrorsNameTheIndex() {
        refused(() -> batch(PAYMENTS, "[{\"id\": \"a\", \"ts\": 1}, {\"id\": \"b\", \"ts\": 1}, {\"id\": \"c\", \"ts\": 1},"
                + " {\"id\": \"d\", \"ts\": 1, \"amount\": \"x\"}]", 10), 400, "invalid_value")
                .hasMessage("events[3].amount: expected a number for double field 'amount', got a string");
        refused(() -> batch(PAYMENTS, "[{\"id\": \"a\", \"ts\": 1}, {\"ts\": 1}]", 10), 400, "missing_event_id")
                .hasMessageStartingWith("events[1].id:");
        refused(() -> batch(PAYMENTS, "[{\"id\": \"a\", \"ts\": 1}, 5]", 10), 400, "invalid_event")
                .hasMessage("events[1]: expected an event as a JSON object, got an integer");
        refused(() -> batch(PAYMENTS, "[{\"id\": \"a\", \"ts\": 1}, {\"id\": \"b\", \"nope\": 1}]", 10), 400, "unknown_field")
                .hasMessageStartingWith("events[1].nope:");
    }

    @Test
    void checksTheShapeAndSizeOfBatches() {
        refused(() -> batch(NO_TIME, "{\"n\": 1}", 10), 400, "invalid_batch")
                .hasMessageContaining("POST the object to .../events");
        refused(() -> batch(NO_TIME, "[{\"n\": 1}, {\"n\": 2}, {\"n\": 3}]", 2), 413, "batch_too_large")
                .hasMessageContaining("at most 2 events");
        assertThat(batch(NO_TIME, "[{\"n\": 1}, {\"n\": 2}]", 2)).hasSize(2);
        refused(() -> batch(NO_TIME, "[{\"n\": 1}, ", 10), 400, "invalid_json");
        refused(() -> batch(NO_TIME, "", 10), 400, "invalid_json");
        refused(() -> batch(NO_TIME, "[] []", 10), 400, "invalid_json");
    }

    @Test
    void reusesItsWriterAcrossStreamsAndSchemas() {
        row(PAYMENTS, "{\"id\": \"a\", \"ts\": 1, \"mcc\": 7}");
        EventRow r = row(NO_TIME, "{\"n\": 9, \"card\": \"q\"}");
        assertThat(r.fieldCount()).isEqualTo(2);
        assertThat(r.getString(1)).isEqualTo("q");
        EventRow again = row(PAYMENTS, "{\"id\": \"b\", \"ts\": 2}");
        assertThat(again.isNull(7)).isTrue();
        StreamDefinition evolved = PAYMENTS.withSchema(PAYMENTS.schema().withField("extra", io.railgun.engine.schema.FieldType.LONG));
        EventRow e = row(evolved, "{\"id\": \"c\", \"ts\": 3, \"extra\": 5}");
        assertThat(e.schemaId()).isEqualTo(2);
        assertThat(e.getLong(8)).isEqualTo(5);
    }

    @Test
    void refusesBodiesThatAreNotStrictUtf8() {
        byte[][] bad = {
            {'{', '"', 'n', '"', ':', '1', ',', '"', 'c', 'a', 'r', 'd', '"', ':', '"', (byte) 0xc0, (byte) 0x80, '"', '}'},
            {'{', '"', 'n', '"', ':', '1', ',', '"', 'c', 'a', 'r', 'd', '"', ':', '"', (byte) 0xe0, (byte) 0x80, (byte) 0x80, '"', '}'},
            {'{', '"', 'n', '"', ':', '1', ',', '"', 'c', 'a', 'r', 'd', '"', ':', '"', (byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80, '"', '}'},
            {'{', '"', 'n', '"', ':', '1', ',', '"', 'c', 'a', 'r', 'd', '"', ':', '"', (byte) 0xed, (byte) 0xa0, (byte) 0x80, '"', '}'},
            {'{', '"', 'n', '"', ':', '1', ',', '"', 'c', 'a', 'r', 'd', '"', ':', '"', (byte) 0xe2, (byte) 0x82, '"', '}'},
            {'{', '"', 'n', '"', ':', '1', ',', '"', 'c', 'a', 'r', 'd', '"', ':', '"', (byte) 0xff, '"', '}'},
        };
        String[] reasons = {"overlong", "overlong", "above U+10FFFF", "surrogate", "malformed", "above U+10FFFF"};
        for (int i = 0; i < bad.length; i++) {
            byte[] body = bad[i];
            refused(() -> codec.readEvent(NO_TIME, body, body.length), 400, "invalid_utf8")
                    .hasMessageContaining("at byte 15").hasMessageContaining(reasons[i]);
        }
        // every valid length, up to U+10FFFF itself
        EventRow r = row(NO_TIME, "{\"n\": 1, \"card\": \"a\u00e9\u20ac\ud83d\ude00\udbff\udfff\"}");
        assertThat(r.getString(1)).isEqualTo("a\u00e9\u20ac\ud83d\ude00\udbff\udfff");
    }
}
