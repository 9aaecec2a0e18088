package io.railgun.engine.state.durable;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The hot-key limit from a budget's share and a measured key size; recomputed when tasks come and go. */
class HotTierSizingTest {

    @Test
    void theLimitIsAsManyKeysAsFitTheTablesShare() throws Exception {
        try (StateMemory memory = new StateMemory(StateMemory.MIN_BYTES)) {
            AutoCloseable task = memory.attach();
            HotTierSizing sizing = new HotTierSizing(memory, null, Integer.MAX_VALUE);
            sizing.share(2, 0);
            long tableShare = memory.hotBytes() / 2;
            assertThat(sizing.tableShareBytes()).isEqualTo(tableShare);
            int limit = sizing.limit(100);
            assertThat(100L * limit).isLessThanOrEqualTo(tableShare);
            assertThat(100L * (limit + 1)).as("one more would not fit").isGreaterThan(tableShare);
            assertThat(sizing.limit(400)).as("keys four times larger").isEqualTo(tableShare / 400);
            task.close();
        }
    }

    @Test
    void aCapBoundsItAndTinySharesKeepAFloor() throws Exception {
        try (StateMemory memory = new StateMemory(StateMemory.MIN_BYTES)) {
            HotTierSizing capped = new HotTierSizing(memory, null, 1000);
            capped.share(1, 0);
            assertThat(capped.limit(64)).isEqualTo(1000);
            assertThat(capped.limit(Long.MAX_VALUE / 2)).isEqualTo(HotTierSizing.MIN_HOT_KEYS);
        }
    }

    @Test
    void tasksComingAndGoingMakeItStaleAndChangeTheShare() throws Exception {
        try (StateMemory memory = new StateMemory(StateMemory.MIN_BYTES)) {
            AutoCloseable first = memory.attach();
            HotTierSizing sizing = new HotTierSizing(memory, null, Integer.MAX_VALUE);
            sizing.share(1, 0);
            assertThat(sizing.stale()).isFalse();
            int alone = sizing.limit(128);
            AutoCloseable others = memory.attach();
            AutoCloseable more = memory.attach();
            AutoCloseable evenMore = memory.attach();
            assertThat(sizing.stale()).isTrue();
            sizing.share(1, 0);
            assertThat(sizing.stale()).isFalse();
            assertThat(sizing.limit(128)).as("a quarter of the share").isEqualTo(memory.hotBytes() / 4 / 128);
            others.close();
            more.close();
            evenMore.close();
            assertThat(sizing.stale()).isTrue();
            sizing.share(1, 0);
            assertThat(sizing.limit(128)).isEqualTo(alone);
            first.close();
        }
    }

    @Test
    void aTaskWantingLittleLeavesTheRestOfTheHotShareToTheOthers() throws Exception {
        try (StateMemory memory = new StateMemory(StateMemory.MIN_BYTES)) {
            StateMemory.Lease big = memory.attach();
            StateMemory.Lease small = memory.attach();
            HotTierSizing cards = new HotTierSizing(memory, big, Integer.MAX_VALUE);
            HotTierSizing merchants = new HotTierSizing(memory, small, Integer.MAX_VALUE);
            cards.share(1, Long.MAX_VALUE);
            assertThat(cards.tableShareBytes()).as("before the other said what it wants: halves")
                    .isEqualTo(memory.hotBytes() / 2);
            int version = memory.version();
            merchants.share(1, 1_000_000);
            assertThat(memory.version()).as("a new want moves the version").isNotEqualTo(version);
            assertThat(cards.stale()).isTrue();
            assertThat(merchants.tableShareBytes()).as("its want, rounded up to a power of two").isEqualTo(1L << 20);
            cards.share(1, Long.MAX_VALUE);
            assertThat(cards.stale()).isFalse();
            assertThat(cards.tableShareBytes()).isEqualTo(memory.hotBytes() - (1L << 20));
            version = memory.version();
            merchants.share(1, 1_040_000);
            assertThat(memory.version()).as("the same power of two: no change").isEqualTo(version);
            small.close();
            assertThat(cards.stale()).isTrue();
            cards.share(1, Long.MAX_VALUE);
            assertThat(cards.tableShareBytes()).isEqualTo(memory.hotBytes());
            big.close();
            assertThat(memory.tasks()).isZero();
        }
    }

    @Test
    void withoutABudgetTheOptionDecides() {
        HotTierSizing sizing = new HotTierSizing(null, null, 12_345);
        sizing.share(3, 0);
        assertThat(sizing.stale()).isFalse();
        assertThat(sizing.limit(1_000_000)).isEqualTo(12_345);
        assertThat(sizing.split(new long[] {1, 2})).containsExactly(Long.MAX_VALUE, Long.MAX_VALUE);
    }
}
