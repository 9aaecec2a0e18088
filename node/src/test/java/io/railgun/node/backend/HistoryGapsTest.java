package io.railgun.node.backend;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A task opened where its input no longer reaches is recorded once per task, with the records it missed. */
class HistoryGapsTest {
    private static TaskStats task(int partition) {
        return new TaskStats("payments", "card", partition, 0, -1, 0, 0, 0, 0, 0, Long.MIN_VALUE);
    }

    @Test
    void aTaskWhoseInputStillReachesItsStartIsNoGap() {
        HistoryGaps gaps = new HistoryGaps();
        assertThat(gaps.check(task(0), 0, 0)).isFalse();
        assertThat(gaps.check(task(1), 500, 120)).as("checkpoint after the earliest offset").isFalse();
        assertThat(gaps.check(task(2), 500, 500)).isFalse();
        assertThat(gaps.gaps()).isEmpty();
    }

    @Test
    void aTaskRebuiltFromNothingOrFromAnOldCheckpointAfterRetentionIsAGapWithTheRecordsItMissed() {
        HistoryGaps gaps = new HistoryGaps();
        assertThat(gaps.check(task(0), 0, 300)).isTrue();
        assertThat(gaps.check(task(1), 100, 250)).isTrue();
        assertThat(gaps.gaps()).extracting(g -> g.task().name() + "=" + g.missingRecords())
                .containsExactlyInAnyOrder("payments/card-0=300", "payments/card-1=150");
        // opened again later (another rebalance): the latest opening counts
        assertThat(gaps.check(task(0), 0, 400)).isTrue();
        assertThat(gaps.gaps()).extracting(g -> g.task().name() + "=" + g.missingRecords())
                .containsExactlyInAnyOrder("payments/card-0=400", "payments/card-1=150");
    }
}
