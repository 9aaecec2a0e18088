package io.railgun.node.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The input retention a control-topic record keeps, and what records written before it existed mean. */
class CatalogCodecTest {
    private static StreamDefinition definition(long inputRetentionMs) {
        Map<String, FieldType> fields = new LinkedHashMap<>();
        fields.put("id", FieldType.STRING);
        fields.put("card", FieldType.STRING);
        return new StreamDefinition("payments", Schema.of(fields), "id", null, List.of("card"), 2, 0, LateEventPolicy.DROP,
                0, inputRetentionMs);
    }

    @Test
    void theInputRetentionRoundTrips() {
        for (long ms : new long[] {7 * 86_400_000L, StreamDefinition.INPUT_RETENTION_FOREVER}) {
            StreamEntry entry = new StreamEntry(definition(ms), "g1", 3, List.of());
            StreamEntry back = CatalogCodec.decode(CatalogCodec.encode(entry, 2)).entry();
            assertThat(back.definition().inputRetentionMs()).isEqualTo(ms);
            assertThat(back.generation()).isEqualTo("g1");
        }
    }

    @Test
    void aRecordFromBeforeInputRetentionKeptEverything() {
        String json = new String(CatalogCodec.encode(new StreamEntry(definition(60_000), "g1", 1, List.of()), 0),
                StandardCharsets.UTF_8).replace(",\"inputRetentionMs\":60000", "");
        assertThat(json).doesNotContain("inputRetention");
        StreamEntry old = CatalogCodec.decode(json.getBytes(StandardCharsets.UTF_8)).entry();
        assertThat(old.definition().inputRetentionMs()).isEqualTo(StreamDefinition.INPUT_RETENTION_FOREVER);
    }
}
