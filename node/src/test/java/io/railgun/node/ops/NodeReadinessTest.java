package io.railgun.node.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.node.backend.TaskStats;
import io.railgun.node.ops.NodeReadiness.UnitState;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The readiness rules over published figures: catalog, group membership, unserved partitions, replay and lag. */
class NodeReadinessTest {
    static TaskStats task(int partition, long lag, long replayLeft) {
        return new TaskStats("pay", "card", partition, 10, lag, replayLeft, 5, 1024, 3, 0, 1_700_000_000_000L, 0, 0);
    }

    @Test
    void readyWhenEveryTaskIsOpenAndCaughtUp() {
        ReadinessReport r = NodeReadiness.check(0, List.of(new UnitState(true, 0, List.of(task(0, 0, 0), task(1, 1000, 0))),
                new UnitState(true, 0, List.of())), 1000);
        assertThat(r).isEqualTo(ReadinessReport.ready(2));
        assertThat(NodeReadiness.check(-1, List.of(new UnitState(true, 0, List.of())), 1000).ready()).isTrue();
    }

    @Test
    void eachReasonIsNamed() {
        ReadinessReport r = NodeReadiness.check(3, List.of(new UnitState(false, 0, List.of()),
                new UnitState(true, 2, List.of(task(0, 1001, 0), task(1, -1, 0), task(2, 0, 5000)))), 1000);
        assertThat(r.ready()).isFalse();
        assertThat(r.tasks()).isEqualTo(3);
        assertThat(r.reasons()).containsExactly(
                "catalog: 3 control record(s) not yet applied",
                "unit 0: joining the task group (no assignment yet)",
                "unit 1: 2 assigned partition(s) not run (their stream is not in the catalog yet)",
                "task pay/card-0: 1001 record(s) behind its input (caught up means at most 1000)",
                "task pay/card-1: lag not known yet (just opened)",
                "task pay/card-2: replaying its input, 5000 record(s) left");
    }

    @Test
    void reasonsAreBounded() {
        List<TaskStats> tasks = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            tasks.add(task(i, 5000, 0));
        }
        ReadinessReport r = NodeReadiness.check(0, List.of(new UnitState(true, 0, tasks)), 1000);
        assertThat(r.reasons()).hasSize(ReadinessReport.MAX_REASONS + 1).last().isEqualTo("... and 30 more");
    }
}
