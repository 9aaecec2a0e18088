package io.railgun.node.backend;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A task opened where its input no longer reaches is recorded once per task, with the records it missed. */
class HistoryGapsTest {

    @Test
    void aTaskWhoseInputStillReachesItsStartIsNoGap() {
        HistoryGaps gaps = new HistoryGaps();
        assertThat(gaps.check("payments", "card", 0, 0, 0)).isFalse();
        assertThat(gaps.check("payments", "card", 1, 500, 120)).as("checkpoint after the earliest offset").isFalse();
        assertThat(gaps.check("payments", "card", 2, 500, 500)).isFalse();
        assertThat(gaps.gaps()).isEmpty();
    }

    @Test
    void aTaskRebuiltFromNothingOrFromAnOldCheckpointAfterRetentionIsAGapWithTheRecordsItMissed() {
        HistoryGaps gaps = new HistoryGaps();
        assertThat(gaps.check("payments", "card", 0, 0, 300)).isTrue();
        assertThat(gaps.check("payments", "card", 1, 100, 250)).isTrue();
        assertThat(gaps.gaps()).extracting(g -> g.name() + "=" + g.missingRecords())
                .containsExactlyInAnyOrder("payments/card-0=300", "payments/card-1=150");
        // opened again later (another rebalance): the latest opening counts
        assertThat(gaps.check("payments", "card", 0, 0, 400)).isTrue();
        assertThat(gaps.gaps()).extracting(g -> g.name() + "=" + g.missingRecords())
                .containsExactlyInAnyOrder("payments/card-0=400", "payments/card-1=150");
    }
}
