package io.railgun.node.cli.client.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railgun.client.FieldType;
import io.railgun.client.LateEvents;
import io.railgun.client.StreamSpec;
import io.railgun.node.cli.client.CommandFailure;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Stream definition files in YAML and JSON, as the body of PUT /v1/streams/{stream}. */
class StreamFileTest {
    @TempDir
    Path dir;

    @Test
    void readsAYamlDefinition() throws Exception {
        Path file = Files.writeString(dir.resolve("stream.yaml"), """
                fields: {id: string, ts: timestamp, card: string, amount: double, n: LONG}
                eventId: id
                timestamp: ts
                partitioners: [card]
                partitions: 4
                lateness: 5s
                lateEvents: rewrite
                retention: 300000
                """);
        StreamSpec spec = StreamFile.read(file, null, "payments");
        assertThat(spec.fields()).containsExactly(java.util.Map.entry("id", FieldType.STRING),
                java.util.Map.entry("ts", FieldType.TIMESTAMP), java.util.Map.entry("card", FieldType.STRING),
                java.util.Map.entry("amount", FieldType.DOUBLE), java.util.Map.entry("n", FieldType.LONG));
        assertThat(spec.eventId()).isEqualTo("id");
        assertThat(spec.timestamp()).isEqualTo("ts");
        assertThat(spec.partitioners()).containsExactly("card");
        assertThat(spec.partitions()).isEqualTo(4);
        assertThat(spec.lateness()).isEqualTo("5s");
        assertThat(spec.lateEvents()).isEqualTo(LateEvents.REWRITE);
        assertThat(spec.retention()).isEqualTo("300000ms");
    }

    @Test
    void readsWhatStreamsShowJsonPrintsFromStandardInput() {
        String json = "{\"name\":\"payments\",\"fields\":{\"id\":\"string\",\"card\":\"string\"},\"eventId\":\"id\","
                + "\"timestamp\":null,\"partitioners\":[\"card\"],\"partitions\":1,\"lateness\":\"0s\","
                + "\"lateEvents\":\"drop\",\"retention\":\"0s\"}";
        StreamSpec spec = StreamFile.read(null, new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)),
                "payments");
        assertThat(spec.timestamp()).isNull();
        assertThat(spec.partitions()).isEqualTo(1);
    }

    @Test
    void takesTheInputRetentionAndShowJsonPrintsItForTheNextCreate() {
        String json = "{\"name\":\"payments\",\"fields\":{\"id\":\"string\",\"card\":\"string\"},\"eventId\":\"id\","
                + "\"partitioners\":[\"card\"],\"inputRetention\":\"forever\"}";
        StreamSpec spec = StreamFile.read(null, new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)),
                "payments");
        assertThat(spec.inputRetention()).isEqualTo("forever");
        assertThat(StreamJson.of("payments", spec).get("inputRetention").asText()).isEqualTo("forever");
        StreamSpec withoutIt = spec.toBuilder().inputRetention(null).build();
        assertThat(StreamJson.of("payments", withoutIt).has("inputRetention")).as("the node's default").isFalse();
    }

    @Test
    void refusesAnUnknownKeyWithTheClosestOne() throws Exception {
        Path file = Files.writeString(dir.resolve("s.json"), "{\"fields\": {\"id\": \"string\"}, \"eventId\": \"id\","
                + " \"partitoners\": [\"id\"]}");
        assertThatThrownBy(() -> StreamFile.read(file, null, "s")).isInstanceOf(CommandFailure.class)
                .hasMessageContaining("unknown key 'partitoners' (did you mean 'partitioners'?)");
    }

    @Test
    void refusesAnotherStreamsNameAMissingFileAndBadSyntax() throws Exception {
        Path named = Files.writeString(dir.resolve("n.yaml"), "name: other\nfields: {id: string}\neventId: id\n"
                + "partitioners: [id]\n");
        assertThatThrownBy(() -> StreamFile.read(named, null, "payments")).hasMessageContaining("names stream 'other'");
        assertThatThrownBy(() -> StreamFile.read(dir.resolve("none.yaml"), null, "s")).hasMessageContaining("does not exist");
        Path bad = Files.writeString(dir.resolve("bad.json"), "{\"fields\": ");
        assertThatThrownBy(() -> StreamFile.read(bad, null, "s")).hasMessageContaining("is not valid JSON (line 1");
        Path type = Files.writeString(dir.resolve("t.yaml"), "fields: {id: text}\neventId: id\npartitioners: [id]\n");
        assertThatThrownBy(() -> StreamFile.read(type, null, "s")).hasMessageContaining("field 'id': unknown field type");
    }
}
