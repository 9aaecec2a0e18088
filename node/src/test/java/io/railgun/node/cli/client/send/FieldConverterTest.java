package io.railgun.node.cli.client.send;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railgun.client.FieldType;
import org.junit.jupiter.api.Test;

/** CSV text into the JSON value of each field type (docs/http-api.md, "Values"). */
class FieldConverterTest {

    @Test
    void longsAreWholeNumbersIncludingWholeDecimals() {
        assertThat(FieldConverter.convert(FieldType.LONG, "42")).isEqualTo(42L);
        assertThat(FieldConverter.convert(FieldType.LONG, " -7 ")).isEqualTo(-7L);
        assertThat(FieldConverter.convert(FieldType.LONG, "3.0")).isEqualTo(3L);
        assertThat(FieldConverter.convert(FieldType.LONG, "1e3")).isEqualTo(1000L);
        assertThat(FieldConverter.convert(FieldType.LONG, "9223372036854775807")).isEqualTo(Long.MAX_VALUE);
        assertThatThrownBy(() -> FieldConverter.convert(FieldType.LONG, "1.5")).hasMessageContaining("whole number");
        assertThatThrownBy(() -> FieldConverter.convert(FieldType.LONG, "9223372036854775808"))
                .hasMessageContaining("64 bits");
        assertThatThrownBy(() -> FieldConverter.convert(FieldType.LONG, "abc")).hasMessageContaining("'abc'");
    }

    @Test
    void doublesAreDecimalNumbersWithinRange() {
        assertThat(FieldConverter.convert(FieldType.DOUBLE, "12.5")).isEqualTo(12.5);
        assertThat(FieldConverter.convert(FieldType.DOUBLE, "12")).isEqualTo(12.0);
        assertThat(FieldConverter.convert(FieldType.DOUBLE, ".5")).isEqualTo(0.5);
        assertThat(FieldConverter.convert(FieldType.DOUBLE, "-1.5E3")).isEqualTo(-1500.0);
        for (String bad : new String[] {"NaN", "Infinity", "1.5d", "0x10", "1,5", "twelve"}) {
            assertThatThrownBy(() -> FieldConverter.convert(FieldType.DOUBLE, bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected a number");
        }
        assertThatThrownBy(() -> FieldConverter.convert(FieldType.DOUBLE, "1e400")).hasMessageContaining("range");
    }

    @Test
    void booleansAreTrueOrFalseInAnyCase() {
        assertThat(FieldConverter.convert(FieldType.BOOLEAN, "true")).isEqualTo(true);
        assertThat(FieldConverter.convert(FieldType.BOOLEAN, "FALSE")).isEqualTo(false);
        assertThatThrownBy(() -> FieldConverter.convert(FieldType.BOOLEAN, "1")).hasMessageContaining("true or false");
    }

    @Test
    void timestampsAreEpochMillisecondsOrIsoTextForTheNodeToCheck() {
        assertThat(FieldConverter.convert(FieldType.TIMESTAMP, "1700000000000")).isEqualTo(1_700_000_000_000L);
        assertThat(FieldConverter.convert(FieldType.TIMESTAMP, "2024-01-01T10:00:00Z")).isEqualTo("2024-01-01T10:00:00Z");
    }

    @Test
    void stringsAreKeptAsTheyAre() {
        assertThat(FieldConverter.convert(FieldType.STRING, " c1 ")).isEqualTo(" c1 ");
        assertThat(FieldConverter.convert(FieldType.STRING, "")).isEqualTo("");
    }

    @Test
    void anEmptyCellIsNullForEveryType() {
        for (FieldType type : FieldType.values()) {
            assertThat(FieldConverter.convert(type, null)).as(type.name()).isNull();
        }
        assertThat(FieldConverter.convert(FieldType.LONG, "  ")).isNull();
    }
}
