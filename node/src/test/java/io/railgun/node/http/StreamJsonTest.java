package io.railgun.node.http;

import static io.railgun.node.http.Codec.refused;
import static io.railgun.node.http.Codec.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.JsonNode;
import io.railgun.engine.schema.Field;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.StreamDefinition;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamJsonTest {
    static final String SPEC_EXAMPLE = """
            {
              "fields": {"id": "string", "ts": "timestamp", "card": "string", "merchant": "string",
                         "amount": "double", "country": "string", "online": "boolean", "mcc": "long"},
              "eventId": "id",
              "timestamp": "ts",
              "partitioners": ["card", "merchant"],
              "partitions": 8,
              "lateness": "5s",
              "lateEvents": "drop"
            }""";

    static StreamDefinition parse(String name, String json) {
        byte[] b = utf8(json);
        return StreamJson.parse(name, b, b.length);
    }

    @Test
    void parsesTheSpecExampleWithFieldsInOrder() {
        StreamDefinition d = parse("payments", SPEC_EXAMPLE);
        assertThat(d.name()).isEqualTo("payments");
        assertThat(d.schema().fields()).extracting(Field::name)
                .containsExactly("id", "ts", "card", "merchant", "amount", "country", "online", "mcc");
        assertThat(d.schema().fields()).extracting(Field::type).containsExactly(FieldType.STRING, FieldType.TIMESTAMP,
                FieldType.STRING, FieldType.STRING, FieldType.DOUBLE, FieldType.STRING, FieldType.BOOLEAN, FieldType.LONG);
        assertThat(d.eventIdField()).isEqualTo("id");
        assertThat(d.timestampField()).isEqualTo("ts");
        assertThat(d.partitioners()).containsExactly("card", "merchant");
        assertThat(d.partitions()).isEqualTo(8);
        assertThat(d.latenessMs()).isEqualTo(5_000);
        assertThat(d.lateEvents()).isEqualTo(LateEventPolicy.DROP);
        assertThat(d.retentionMs()).isZero();
    }

    @Test
    void appliesDefaults() {
        StreamDefinition d = parse("s", "{\"fields\": {\"id\": \"long\", \"card\": \"string\"}, \"eventId\": \"id\", "
                + "\"partitioners\": [\"card\"]}");
        assertThat(d.timestampField()).isNull();
        assertThat(d.partitions()).isEqualTo(1);
        assertThat(d.latenessMs()).isZero();
        assertThat(d.lateEvents()).isEqualTo(LateEventPolicy.DROP);
        assertThat(d.retentionMs()).isZero();
    }

    @Test
    void acceptsDurationsAsNumbersAndWordsRewriteRetentionAndNullTimestamp() {
        StreamDefinition d = parse("s", "{\"fields\": {\"id\": \"string\", \"Card\": \"string\"}, \"eventId\": \"ID\", "
                + "\"timestamp\": null, \"partitioners\": [\"card\"], \"partitions\": 4.0, \"lateness\": 250, "
                + "\"lateEvents\": \"REWRITE\", \"retention\": \"7 days\", \"name\": \"s\"}");
        assertThat(d.latenessMs()).isEqualTo(250);
        assertThat(d.lateEvents()).isEqualTo(LateEventPolicy.REWRITE);
        assertThat(d.retentionMs()).isEqualTo(7 * 86_400_000L);
        assertThat(d.partitions()).isEqualTo(4);
        assertThat(d.timestampField()).isNull();
        // references are stored with the declared spelling
        assertThat(d.eventIdField()).isEqualTo("id");
        assertThat(d.partitioners()).containsExactly("Card");
    }

    @Test
    void writesThePutShapePlusNameAndReadsItBack() {
        StreamDefinition d = parse("payments", SPEC_EXAMPLE);
        String json = Codec.json(g -> StreamJson.write(g, d));
        assertThat(json).isEqualTo("{\"name\":\"payments\",\"fields\":{\"id\":\"string\",\"ts\":\"timestamp\","
                + "\"card\":\"string\",\"merchant\":\"string\",\"amount\":\"double\",\"country\":\"string\","
                + "\"online\":\"boolean\",\"mcc\":\"long\"},\"eventId\":\"id\",\"timestamp\":\"ts\","
                + "\"partitioners\":[\"card\",\"merchant\"],\"partitions\":8,\"lateness\":\"5s\",\"lateEvents\":\"drop\","
                + "\"retention\":\"0s\"}");
        StreamDefinition back = parse("payments", json);
        assertThat(back).usingRecursiveComparison().isEqualTo(d);
        assertThat(Codec.json(g -> StreamJson.write(g, back))).isEqualTo(json);
    }

    @Test
    void inputRetentionIsOptionalForeverOrAtLeastAMinuteAndShownOnceResolved() {
        String base = "{\"fields\": {\"id\": \"long\", \"card\": \"string\"}, \"eventId\": \"id\","
                + " \"partitioners\": [\"card\"]";
        assertThat(parse("s", base + "}").inputRetentionMs()).isEqualTo(StreamDefinition.INPUT_RETENTION_NODE_DEFAULT);
        assertThat(parse("s", base + ", \"inputRetention\": null}").inputRetentionMs())
                .isEqualTo(StreamDefinition.INPUT_RETENTION_NODE_DEFAULT);
        assertThat(parse("s", base + ", \"inputRetention\": \"Forever\"}").inputRetentionMs())
                .isEqualTo(StreamDefinition.INPUT_RETENTION_FOREVER);
        assertThat(parse("s", base + ", \"inputRetention\": \"14d\"}").inputRetentionMs()).isEqualTo(14 * 86_400_000L);
        assertThat(parse("s", base + ", \"inputRetention\": 60000}").inputRetentionMs()).isEqualTo(60_000);
        for (String bad : List.of("\"59s\"", "\"0s\"", "0", "-1", "\"never\"", "true", "1.5", "\"\"")) {
            refused(() -> parse("s", base + ", \"inputRetention\": " + bad + "}"), 400, "invalid_input_retention")
                    .hasMessageContaining("\"inputRetention\"").hasMessageContaining("at least 1m");
        }

        // the node's default is not shown (PUT echoes the body); a resolved one is, and reads back
        StreamDefinition unset = parse("s", base + "}");
        assertThat(Codec.json(g -> StreamJson.write(g, unset))).doesNotContain("inputRetention");
        StreamDefinition week = unset.withInputRetention(7 * 86_400_000L);
        String json = Codec.json(g -> StreamJson.write(g, week));
        assertThat(json).endsWith(",\"retention\":\"0s\",\"inputRetention\":\"7d\"}");
        assertThat(parse("s", json)).usingRecursiveComparison().isEqualTo(week);
        StreamDefinition forever = unset.withInputRetention(StreamDefinition.INPUT_RETENTION_FOREVER);
        assertThat(parse("s", Codec.json(g -> StreamJson.write(g, forever)))).usingRecursiveComparison().isEqualTo(forever);
    }

    @Test
    void writesAListAndNullTimestamp() throws Exception {
        StreamDefinition a = parse("a", "{\"fields\": {\"id\": \"string\"}, \"eventId\": \"id\", \"partitioners\": [\"id\"]}");
        StreamDefinition b = parse("b", SPEC_EXAMPLE);
        JsonNode list = TestHttp.JSON.readTree(Codec.json(g -> StreamJson.writeList(g, List.of(a, b))));
        assertThat(list.path("streams")).hasSize(2);
        assertThat(list.path("streams").get(0).path("name").asText()).isEqualTo("a");
        assertThat(list.path("streams").get(0).get("timestamp").isNull()).isTrue();
        assertThat(list.path("streams").get(1).path("name").asText()).isEqualTo("b");
    }

    @Test
    void checksStreamNames() {
        assertThatCode(() -> StreamJson.checkName("payments_v1.2-eu")).doesNotThrowAnyException();
        assertThatCode(() -> StreamJson.checkName("_x")).doesNotThrowAnyException();
        assertThatCode(() -> StreamJson.checkName("a".repeat(100))).doesNotThrowAnyException();
        refused(() -> StreamJson.checkName("a".repeat(101)), 400, "invalid_stream_name").hasMessageContaining("1-100");
        refused(() -> StreamJson.checkName(".hidden"), 400, "invalid_stream_name");
        refused(() -> StreamJson.checkName("-x"), 400, "invalid_stream_name");
        refused(() -> StreamJson.checkName("with space"), 400, "invalid_stream_name").hasMessageContaining("'with space'");
        refused(() -> StreamJson.checkName("é"), 400, "invalid_stream_name");
        refused(() -> parse("bad name", SPEC_EXAMPLE), 400, "invalid_stream_name");
    }

    @Test
    void refusesUnknownTypesListingTheValidOnes() {
        refused(() -> parse("s", "{\"fields\": {\"id\": \"strin\"}, \"eventId\": \"id\", \"partitioners\": [\"id\"]}"),
                400, "invalid_field_type")
                .hasMessageContaining("field 'id' has unknown type \"strin\"")
                .hasMessageContaining("did you mean string?")
                .hasMessageContaining("string, long, double, boolean, timestamp");
        refused(() -> parse("s", "{\"fields\": {\"id\": 3}, \"eventId\": \"id\", \"partitioners\": [\"id\"]}"),
                400, "invalid_field_type").hasMessageContaining("unknown type 3");
    }

    @Test
    void refusesUnknownKeysNamingTheValidOnes() {
        refused(() -> parse("s", "{\"fields\": {\"id\": \"string\"}, \"eventId\": \"id\", \"partitioners\": [\"id\"], "
                + "\"partition\": 3}"), 400, "unknown_key")
                .hasMessageContaining("unknown key \"partition\"")
                .hasMessageContaining("did you mean partitions?")
                .hasMessageContaining("fields, eventId, timestamp, partitioners, partitions, lateness, lateEvents, retention");
    }

    @Test
    void refusesReferencesToMissingFields() {
        refused(() -> parse("s", "{\"fields\": {\"id\": \"string\", \"card\": \"string\"}, \"eventId\": \"id\", "
                + "\"partitioners\": [\"crad\"]}"), 400, "unknown_field")
                .hasMessageContaining("partitioner 'crad' is not a field")
                .hasMessageContaining("did you mean card?")
                .hasMessageContaining("id, card");
        refused(() -> parse("s", "{\"fields\": {\"id\": \"string\"}, \"eventId\": \"key\", \"partitioners\": [\"id\"]}"),
                400, "unknown_field").hasMessageContaining("\"eventId\" 'key'");
        refused(() -> parse("s", "{\"fields\": {\"id\": \"string\"}, \"eventId\": \"id\", \"timestamp\": \"ts\", "
                + "\"partitioners\": [\"id\"]}"), 400, "unknown_field").hasMessageContaining("\"timestamp\" 'ts'");
    }

    @Test
    void refusesMissingOrMalformedRequiredKeys() {
        refused(() -> parse("s", "{\"eventId\": \"id\", \"partitioners\": [\"id\"]}"), 400, "invalid_stream")
                .hasMessageContaining("\"fields\" is missing");
        refused(() -> parse("s", "{\"fields\": {}, \"eventId\": \"id\", \"partitioners\": [\"id\"]}"), 400,
                "invalid_stream").hasMessageContaining("non-empty object");
        refused(() -> parse("s", "{\"fields\": [\"id\"], \"eventId\": \"id\", \"partitioners\": [\"id\"]}"), 400,
                "invalid_stream").hasMessageContaining("non-empty object");
        refused(() -> parse("s", "{\"fields\": {\"id\": \"string\"}, \"partitioners\": [\"id\"]}"), 400,
                "invalid_stream").hasMessageContaining("\"eventId\" is missing");
        refused(() -> parse("s", "{\"fields\": {\"id\": \"string\"}, \"eventId\": 1, \"partitioners\": [\"id\"]}"), 400,
                "invalid_stream").hasMessageContaining("\"eventId\" must be the name of a field");
        refused(() -> parse("s", "{\"fields\": {\"id\": \"string\"}, \"eventId\": \"id\"}"), 400, "invalid_stream")
                .hasMessageContaining("\"partitioners\" is missing");
        refused(() -> parse("s", "{\"fields\": {\"id\": \"string\"}, \"eventId\": \"id\", \"partitioners\": []}"), 400,
                "invalid_stream").hasMessageContaining("non-empty array");
        refused(() -> parse("s", "{\"fields\": {\"id\": \"string\"}, \"eventId\": \"id\", \"partitioners\": \"id\"}"), 400,
                "invalid_stream").hasMessageContaining("non-empty array");
        refused(() -> parse("s", "{\"fields\": {\"id\": \"string\"}, \"eventId\": \"id\", \"partitioners\": [1]}"), 400,
                "invalid_stream").hasMessageContaining("field names (strings)");
        refused(() -> parse("s", "{\"fields\": {\"id\": \"string\"}, \"eventId\": \"id\", \"partitioners\": [\"id\", \"ID\"]}"),
                400, "invalid_stream").hasMessageContaining("listed twice");
    }

    @Test
    void refusesBadValues() {
        String base = "{\"fields\": {\"id\": \"string\", \"ts\": \"timestamp\", \"x\": \"double\"}, \"eventId\": \"id\", "
                + "\"partitioners\": [\"id\"], ";
        refused(() -> parse("s", base + "\"partitions\": 0}"), 400, "invalid_stream").hasMessageContaining("from 1 to 10000");
        refused(() -> parse("s", base + "\"partitions\": 1.5}"), 400, "invalid_stream").hasMessageContaining("whole number");
        refused(() -> parse("s", base + "\"partitions\": \"8\"}"), 400, "invalid_stream");
        refused(() -> parse("s", base + "\"partitions\": 10001}"), 400, "invalid_stream");
        refused(() -> parse("s", base + "\"lateness\": \"5 parsecs\"}"), 400, "invalid_stream")
                .hasMessageContaining("\"lateness\"").hasMessageContaining("unknown unit");
        refused(() -> parse("s", base + "\"lateness\": -1}"), 400, "invalid_stream").hasMessageContaining("negative");
        refused(() -> parse("s", base + "\"lateness\": true}"), 400, "invalid_stream").hasMessageContaining("duration");
        refused(() -> parse("s", base + "\"retention\": \"forever\"}"), 400, "invalid_stream")
                .hasMessageContaining("\"retention\"");
        refused(() -> parse("s", base + "\"lateEvents\": \"keep\"}"), 400, "invalid_stream")
                .hasMessageContaining("\"drop\"").hasMessageContaining("\"rewrite\"");
        refused(() -> parse("s", base + "\"timestamp\": \"x\"}"), 400, "invalid_stream")
                .hasMessageContaining("timestamp field 'x' is a double");
        refused(() -> parse("s", base.replace("\"eventId\": \"id\"", "\"eventId\": \"x\"") + "\"partitions\": 1}"), 400,
                "invalid_stream").hasMessageContaining("must be a string or long");
        refused(() -> parse("s", base + "\"name\": \"other\"}"), 400, "invalid_stream")
                .hasMessageContaining("path names stream 's'");
    }

    @Test
    void refusesBadFieldNamesAndCaseDuplicates() {
        refused(() -> parse("s", "{\"fields\": {\"id\": \"string\", \"ID\": \"long\"}, \"eventId\": \"id\", "
                + "\"partitioners\": [\"id\"]}"), 400, "invalid_stream").hasMessageContaining("differ only in case");
        refused(() -> parse("s", "{\"fields\": {\"\": \"string\"}, \"eventId\": \"id\", \"partitioners\": [\"id\"]}"), 400,
                "invalid_field_name");
        refused(() -> parse("s", "{\"fields\": {\"a\\u0001\": \"string\"}, \"eventId\": \"id\", \"partitioners\": [\"id\"]}"),
                400, "invalid_field_name");
        // a duplicate key in JSON is an error, not "last one wins"
        refused(() -> parse("s", "{\"fields\": {\"id\": \"string\", \"id\": \"long\"}, \"eventId\": \"id\", "
                + "\"partitioners\": [\"id\"]}"), 400, "invalid_json").hasMessageContaining("Duplicate");
    }

    @Test
    void refusesMalformedOrNonObjectBodies() {
        refused(() -> parse("s", ""), 400, "invalid_json").hasMessageContaining("empty");
        refused(() -> parse("s", "{\"fields\": "), 400, "invalid_json").hasMessageContaining("line 1");
        refused(() -> parse("s", "{\"fields\": {\"id\": \"string\",}}"), 400, "invalid_json");
        refused(() -> parse("s", "[1, 2]"), 400, "invalid_stream").hasMessageContaining("JSON object");
        refused(() -> parse("s", SPEC_EXAMPLE + " {}"), 400, "invalid_json").hasMessageContaining("more than one JSON value");
    }
}
