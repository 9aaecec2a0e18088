package io.railgun.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The PUT body of SPEC §3.1: builder rules, field order, and the JSON round trip. */
class StreamSpecTest {

    @Test
    void fieldsKeepTheirDeclarationOrder() {
        StreamSpec spec = StreamSpec.builder().field("z", FieldType.STRING).field("a", FieldType.LONG)
                .field("m", FieldType.DOUBLE).eventId("z").partitioners("z").build();

        assertThat(spec.fields().keySet()).containsExactly("z", "a", "m");
    }

    @Test
    void aFieldDeclaredTwiceIsRefused() {
        assertThatThrownBy(() -> StreamSpec.builder().field("a", FieldType.LONG).field("a", FieldType.STRING))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'a'");
    }

    @Test
    void eventIdIsRequired() {
        assertThatThrownBy(() -> StreamSpec.builder().field("a", FieldType.LONG).partitioners("a").build())
                .isInstanceOf(NullPointerException.class).hasMessageContaining("eventId");
    }

    @Test
    void theSpecIsImmutable() {
        Map<String, FieldType> fields = new LinkedHashMap<>();
        fields.put("id", FieldType.STRING);
        StreamSpec spec = new StreamSpec(fields, "id", null, List.of("id"), 0, null, null, null);
        fields.put("later", FieldType.LONG);

        assertThat(spec.fields()).containsOnlyKeys("id");
        assertThatThrownBy(() -> spec.fields().put("x", FieldType.LONG)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void toBuilderAddsAFieldAfterTheOthers() {
        StreamSpec v1 = RailgunClientRequestTest.payments();

        StreamSpec v2 = v1.toBuilder().field("device", FieldType.STRING).build();

        assertThat(v2.fields().keySet()).endsWith("mcc", "device");
        assertThat(v2.toBuilder().build()).isEqualTo(v2);
        assertThat(v2.partitioners()).isEqualTo(v1.partitioners());
        assertThat(v2.lateness()).isEqualTo("5s");
    }

    @Test
    void theJsonReadsBackAsTheSameSpec() throws IOException {
        StreamSpec spec = RailgunClientRequestTest.payments().toBuilder().lateEvents(LateEvents.REWRITE).retention("30d")
                .build();

        StreamSpec back = JsonCodec.streamSpec(JsonCodec.MAPPER.readTree(JsonCodec.streamSpec(spec)));

        assertThat(back).isEqualTo(spec);
        assertThat(back.fields().keySet()).containsExactlyElementsOf(spec.fields().keySet());
    }

    @Test
    void typeNamesAreTheSpecs() {
        assertThat(FieldType.values()).extracting(FieldType::jsonName)
                .containsExactly("string", "long", "double", "boolean", "timestamp");
        assertThat(FieldType.fromJson("Timestamp")).isEqualTo(FieldType.TIMESTAMP);
        assertThatThrownBy(() -> FieldType.fromJson("int")).isInstanceOf(IllegalArgumentException.class);
        assertThat(LateEvents.fromJson("rewrite")).isEqualTo(LateEvents.REWRITE);
    }
}
