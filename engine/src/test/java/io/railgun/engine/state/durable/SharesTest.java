package io.railgun.engine.state.durable;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Water-filling: a share split among tables or tasks by what each wants. */
class SharesTest {
    @Test
    void aClaimantWantingLessThanAnEqualPartLeavesTheRestToTheOthers() {
        long share = 1L << 30;
        long[] parts = Shares.split(share, new long[] {share, 1_000, share / 4});
        assertThat(parts[1]).as("the small claimant gets what it wants").isEqualTo(1_000);
        assertThat(parts[2]).as("so does one wanting less than half of the rest").isEqualTo(share / 4);
        assertThat(parts[0]).as("the large one the rest").isEqualTo(share - 1_000 - share / 4);
    }

    /**
     * Max-min fairness on random wants: the parts add up to the share (to a unit a claimant); when
     * the wants exceed it, no part is over its want and every claimant that gets less than it
     * wants gets at least every other's part (to a unit); when they do not, each gets its want and
     * an equal part of the rest.
     */
    @Test
    void theSplitIsMaxMinFair() {
        SplittableRandom random = new SplittableRandom(7);
        long share = 429_496_729L;
        for (int trial = 0; trial < 10_000; trial++) {
            int n = 1 + random.nextInt(6);
            long[] wanted = new long[n];
            for (int i = 0; i < n; i++) {
                wanted[i] = random.nextBoolean() ? random.nextLong(share / n + 1) : random.nextLong(2 * share);
            }
            long[] parts = Shares.split(share, wanted);
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
                        // equal parts of what is left, rounded down: one unit apart at most
                        assertThat(parts[i]).as("a short claimant's part against another's").isGreaterThanOrEqualTo(parts[j] - 1);
                    }
                }
            }
        }
    }

    @Test
    void nothingToSplitAmongNone() {
        assertThat(Shares.split(100, new long[0])).isEmpty();
        assertThat(Shares.split(0, new long[] {5, 7})).containsExactly(0, 0);
    }
}
