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
    void aTableWantingLessThanAnEqualPartLeavesTheRestToTheOthers() throws Exception {
        try (StateMemory memory = new StateMemory(StateMemory.MIN_BYTES)) {
            AutoCloseable task = memory.attach();
            HotTierSizing sizing = new HotTierSizing(memory, Integer.MAX_VALUE);
            sizing.share(3);
            long share = memory.hotBytes();
            long[] parts = sizing.split(new long[] {share, 1_000, share / 4});
            assertThat(parts[1]).as("the small table gets what it wants").isEqualTo(1_000);
            assertThat(parts[2]).as("so does one wanting less than half of the rest").isEqualTo(share / 4);
            assertThat(parts[0]).as("the large one the rest").isEqualTo(share - 1_000 - share / 4);
            task.close();
        }
    }

    /**
     * Max-min fairness on random wants: no part over its want or the
     * share in all; every table that gets less than it wants gets at least every other's part (to
     * a byte); and
     * nothing is left while a table wants more.
     */
    @Test
    void theSplitIsMaxMinFair() throws Exception {
        try (StateMemory memory = new StateMemory(StateMemory.MIN_BYTES)) {
            AutoCloseable task = memory.attach();
            HotTierSizing sizing = new HotTierSizing(memory, Integer.MAX_VALUE);
            java.util.SplittableRandom random = new java.util.SplittableRandom(7);
            long share = memory.hotBytes();
            for (int trial = 0; trial < 10_000; trial++) {
                int n = 1 + random.nextInt(6);
                sizing.share(n);
                long[] wanted = new long[n];
                for (int i = 0; i < n; i++) {
                    wanted[i] = random.nextBoolean() ? random.nextLong(share / n + 1) : random.nextLong(2 * share);
                }
                long[] parts = sizing.split(wanted);
                long sum = 0;
                long wantedSum = 0;
                for (int i = 0; i < n; i++) {
                    sum += parts[i];
                    wantedSum += wanted[i];
                }
                assertThat(sum).isBetween(share - n, share);
                if (wantedSum <= share) {
                    for (int i = 0; i < n; i++) {
                        assertThat(parts[i]).as("every want met, the rest shared").isEqualTo(wanted[i] + (share - wantedSum) / n);
                    }
                    continue;
                }
                for (int i = 0; i < n; i++) {
                    assertThat(parts[i]).isBetween(0L, wanted[i]);
                    if (parts[i] < wanted[i]) {
                        for (int j = 0; j < n; j++) {
                            // (equal parts of what is left, rounded down: one byte apart at most)
                            assertThat(parts[i]).as("a short table's part against another's").isGreaterThanOrEqualTo(parts[j] - 1);
                        }
                    }
                }
            }
            task.close();
        }
    }

    @Test
    void withoutABudgetTheOptionDecides() {
        HotTierSizing sizing = new HotTierSizing(null, 12_345);
        sizing.share(3);
        assertThat(sizing.stale()).isFalse();
        assertThat(sizing.limit(1_000_000)).isEqualTo(12_345);
        assertThat(sizing.split(new long[] {1, 2})).containsExactly(Long.MAX_VALUE, Long.MAX_VALUE);
    }
}
