package io.railgun.node.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void parsesEveryUnitAndWord() {
        assertThat(Durations.parseMs("250ms")).isEqualTo(250);
        assertThat(Durations.parseMs("5s")).isEqualTo(5_000);
        assertThat(Durations.parseMs("1m")).isEqualTo(60_000);
        assertThat(Durations.parseMs("2h")).isEqualTo(7_200_000);
        assertThat(Durations.parseMs("7d")).isEqualTo(604_800_000);
        assertThat(Durations.parseMs("1w")).isEqualTo(604_800_000);
        assertThat(Durations.parseMs("0")).isZero();
        assertThat(Durations.parseMs("0s")).isZero();
        assertThat(Durations.parseMs("5 MINUTES")).isEqualTo(300_000);
        assertThat(Durations.parseMs(" 1 second ")).isEqualTo(1_000);
        assertThat(Durations.parseMs("3 Days")).isEqualTo(3 * 86_400_000L);
    }

    @Test
    void refusesWhatIsNotADuration() {
        assertThatThrownBy(() -> Durations.parseMs("5")).hasMessageContaining("has no unit").hasMessageContaining("\"5s\"");
        assertThatThrownBy(() -> Durations.parseMs("5y")).hasMessageContaining("unknown unit \"y\"");
        assertThatThrownBy(() -> Durations.parseMs("-5s")).hasMessageContaining("is not a duration");
        assertThatThrownBy(() -> Durations.parseMs("1.5s")).hasMessageContaining("is not a duration");
        assertThatThrownBy(() -> Durations.parseMs("")).hasMessageContaining("is not a duration");
        assertThatThrownBy(() -> Durations.parseMs("9999999999999999999d")).hasMessageContaining("too long");
        assertThatThrownBy(() -> Durations.parseMs("999999999999999w")).hasMessageContaining("too long");
    }

    @Test
    void formatsInTheLargestExactUnit() {
        assertThat(Durations.format(0)).isEqualTo("0s");
        assertThat(Durations.format(250)).isEqualTo("250ms");
        assertThat(Durations.format(1_500)).isEqualTo("1500ms");
        assertThat(Durations.format(5_000)).isEqualTo("5s");
        assertThat(Durations.format(90_000)).isEqualTo("90s");
        assertThat(Durations.format(300_000)).isEqualTo("5m");
        assertThat(Durations.format(7_200_000)).isEqualTo("2h");
        assertThat(Durations.format(604_800_000)).isEqualTo("7d");
        for (long ms : new long[] {1, 999, 1000, 61_000, 3_600_000, 86_400_000L * 400}) {
            assertThat(Durations.parseMs(Durations.format(ms))).isEqualTo(ms);
        }
    }
}
