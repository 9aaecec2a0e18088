package io.railgun.engine.state.durable;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StateMemoryTest {
    @Test
    void cacheShardsHoldAtLeast32MiBAndAreAtMost16() {
        assertThat(StateMemory.shardBits(StateMemory.MIN_BYTES * 3 / 10)).as("the smallest budget's share").isZero();
        assertThat(StateMemory.shardBits((64L << 20) - 1)).isZero();
        assertThat(StateMemory.shardBits(64L << 20)).isEqualTo(1);
        assertThat(StateMemory.shardBits(410L << 20)).isEqualTo(3);
        assertThat(StateMemory.shardBits(512L << 20)).isEqualTo(4);
        assertThat(StateMemory.shardBits(64L << 30)).isEqualTo(4);
    }
}
