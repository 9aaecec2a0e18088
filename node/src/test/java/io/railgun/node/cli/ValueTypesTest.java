package io.railgun.node.cli;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/** Durations and sizes shown in help and logs read back as the same value. */
class ValueTypesTest {

    @Property(tries = 2000)
    void aFormattedDurationParsesBack(@ForAll @LongRange(min = 0, max = 1_000L * 86_400_000) long ms) {
        assertThat(Durations.parseMs(Durations.format(ms))).isEqualTo(ms);
    }

    @Property(tries = 2000)
    void aFormattedSizeParsesBack(@ForAll @LongRange(min = 0, max = 1L << 40) long bytes) {
        assertThat(ByteSizes.parse(ByteSizes.format(bytes))).isEqualTo(bytes);
    }

    @Property(tries = 200)
    void roundNumbersUseTheLargestUnit(@ForAll @LongRange(min = 1, max = 1000) long n) {
        assertThat(Durations.format(n * 3_600_000)).endsWith(n % 24 == 0 ? "d" : "h");
        assertThat(ByteSizes.format(n << 20)).endsWith(n % 1024 == 0 ? "GiB" : "MiB");
    }
}
