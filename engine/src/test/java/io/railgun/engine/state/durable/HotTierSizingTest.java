package io.railgun.engine.state.durable;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A task's part of the budget's hot share (an equal one, or what it wants when that is less) and
 * a table's hot-key limit from its part and a measured key size; recomputed when tasks come and
 * go or change what they want.
 */
class HotTierSizingTest {

    @Test
    void theLimitIsAsManyKeysAsFitTheTablesPart() throws Exception {
        try (StateMemory memory = new StateMemory(StateMemory.MIN_BYTES)) {
            StateMemory.Lease task = memory.attach();
            HotTierSizing sizing = new HotTierSizing(task, Integer.MAX_VALUE);
            sizing.share(0);
            assertThat(sizing.taskShareBytes()).as("alone, all of it").isEqualTo(memory.hotBytes());
            long part = memory.hotBytes() / 2;
            int limit = sizing.limit(100, part);
            assertThat(100L * limit).isLessThanOrEqualTo(part);
            assertThat(100L * (limit + 1)).as("one more would not fit").isGreaterThan(part);
            assertThat(sizing.limit(400, part)).as("keys four times larger").isEqualTo(part / 400);
            task.close();
        }
    }

    @Test
    void aCapBoundsItAndTinyPartsKeepAFloor() throws Exception {
        try (StateMemory memory = new StateMemory(StateMemory.MIN_BYTES)) {
            HotTierSizing capped = new HotTierSizing(memory.attach(), 1000);
            capped.share(0);
            assertThat(capped.limit(64, memory.hotBytes())).isEqualTo(1000);
            assertThat(capped.limit(Long.MAX_VALUE / 2, memory.hotBytes())).isEqualTo(HotTierSizing.MIN_HOT_KEYS);
        }
    }

    @Test
    void tasksComingAndGoingMakeItStaleAndChangeThePart() throws Exception {
        try (StateMemory memory = new StateMemory(StateMemory.MIN_BYTES)) {
            StateMemory.Lease first = memory.attach();
            HotTierSizing sizing = new HotTierSizing(first, Integer.MAX_VALUE);
            sizing.share(Long.MAX_VALUE);
            assertThat(sizing.stale()).isFalse();
            AutoCloseable others = memory.attach();
            AutoCloseable more = memory.attach();
            AutoCloseable evenMore = memory.attach();
            assertThat(sizing.stale()).isTrue();
            sizing.share(Long.MAX_VALUE);
            assertThat(sizing.stale()).isFalse();
            assertThat(sizing.taskShareBytes()).as("a quarter of the share").isEqualTo(memory.hotBytes() / 4);
            others.close();
            more.close();
            evenMore.close();
            assertThat(sizing.stale()).isTrue();
            sizing.share(Long.MAX_VALUE);
            assertThat(sizing.taskShareBytes()).isEqualTo(memory.hotBytes());
            first.close();
        }
    }

    @Test
    void aTaskWantingLittleLeavesTheRestOfTheHotShareToTheOthers() throws Exception {
        try (StateMemory memory = new StateMemory(StateMemory.MIN_BYTES)) {
            StateMemory.Lease big = memory.attach();
            StateMemory.Lease small = memory.attach();
            HotTierSizing cards = new HotTierSizing(big, Integer.MAX_VALUE);
            HotTierSizing merchants = new HotTierSizing(small, Integer.MAX_VALUE);
            cards.share(Long.MAX_VALUE);
            assertThat(cards.taskShareBytes()).as("before the other said what it wants: halves")
                    .isEqualTo(memory.hotBytes() / 2);
            int version = memory.version();
            merchants.share(1_000_000);
            assertThat(memory.version()).as("a new want moves the version").isNotEqualTo(version);
            assertThat(cards.stale()).isTrue();
            assertThat(merchants.taskShareBytes()).as("its want, rounded up to a power of two").isEqualTo(1L << 20);
            cards.share(Long.MAX_VALUE);
            assertThat(cards.stale()).isFalse();
            assertThat(cards.taskShareBytes()).isEqualTo(memory.hotBytes() - (1L << 20));
            version = memory.version();
            merchants.share(1_040_000);
            assertThat(memory.version()).as("the same power of two: no change").isEqualTo(version);
            small.close();
            assertThat(cards.stale()).isTrue();
            cards.share(Long.MAX_VALUE);
            assertThat(cards.taskShareBytes()).isEqualTo(memory.hotBytes());
            big.close();
            assertThat(memory.tasks()).isZero();
        }
    }

    @Test
    void withoutABudgetTheOptionDecides() {
        HotTierSizing sizing = new HotTierSizing(null, 12_345);
        sizing.share(3);
        assertThat(sizing.stale()).isFalse();
        assertThat(sizing.limit(1_000_000, 1)).isEqualTo(12_345);
        assertThat(sizing.taskShareBytes()).isEqualTo(Long.MAX_VALUE);
        assertThat(sizing.split(new long[] {1, 2})).containsExactly(Long.MAX_VALUE, Long.MAX_VALUE);
    }
}
