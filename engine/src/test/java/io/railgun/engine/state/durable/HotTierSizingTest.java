package io.railgun.engine.state.durable;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The hot-key limit from a budget's share and a measured key size; recomputed when tasks come and go. */
class HotTierSizingTest {

    @Test
    void theLimitIsTheLargestPowerOfTwoOfKeysThatFitsTheTablesShare() throws Exception {
        try (StateMemory memory = new StateMemory(StateMemory.MIN_BYTES)) {
            AutoCloseable task = memory.attach();
            HotTierSizing sizing = new HotTierSizing(memory, Integer.MAX_VALUE);
            sizing.share(2);
            long tableShare = memory.hotBytes() / 2;
            assertThat(sizing.tableShareBytes()).isEqualTo(tableShare);
            int limit = sizing.limit(100);
            assertThat(Integer.bitCount(limit)).isEqualTo(1);
            assertThat(100L * limit).isLessThanOrEqualTo(tableShare);
            assertThat(200L * limit).isGreaterThan(tableShare);
            assertThat(sizing.limit(400)).as("keys four times larger").isEqualTo(limit / 4);
            task.close();
        }
    }

    @Test
    void aCapBoundsItAndTinySharesKeepAFloor() throws Exception {
        try (StateMemory memory = new StateMemory(StateMemory.MIN_BYTES)) {
            HotTierSizing capped = new HotTierSizing(memory, 1000);
            capped.share(1);
            assertThat(capped.limit(64)).isEqualTo(1000);
            assertThat(capped.limit(Long.MAX_VALUE / 2)).isEqualTo(HotTierSizing.MIN_HOT_KEYS);
        }
    }

    @Test
    void tasksComingAndGoingMakeItStaleAndChangeTheShare() throws Exception {
        try (StateMemory memory = new StateMemory(StateMemory.MIN_BYTES)) {
            AutoCloseable first = memory.attach();
            HotTierSizing sizing = new HotTierSizing(memory, Integer.MAX_VALUE);
            sizing.share(1);
            assertThat(sizing.stale()).isFalse();
            int alone = sizing.limit(128);
            AutoCloseable others = memory.attach();
            AutoCloseable more = memory.attach();
            AutoCloseable evenMore = memory.attach();
            assertThat(sizing.stale()).isTrue();
            sizing.share(1);
            assertThat(sizing.stale()).isFalse();
            assertThat(sizing.limit(128)).as("a quarter of the share").isEqualTo(alone / 4);
            others.close();
            more.close();
            evenMore.close();
            assertThat(sizing.stale()).isTrue();
            sizing.share(1);
            assertThat(sizing.limit(128)).isEqualTo(alone);
            first.close();
        }
    }

    @Test
    void withoutABudgetTheOptionDecides() {
        HotTierSizing sizing = new HotTierSizing(null, 12_345);
        sizing.share(3);
        assertThat(sizing.stale()).isFalse();
        assertThat(sizing.limit(1_000_000)).isEqualTo(12_345);
    }
}
