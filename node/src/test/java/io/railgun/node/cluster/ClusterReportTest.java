package io.railgun.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.node.assignment.CopyRole;
import io.railgun.node.cluster.ClusterReport.TaskRow;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the nodes' statuses become the cluster view: reachability, roles, the active chosen while a task moves. */
class ClusterReportTest {
    static final long NOW = 1_700_000_100_000L;

    static NodeStatus node(String id, long ageMs, CopyStatus... copies) {
        return new NodeStatus(id, "http://" + id, NOW - 60_000, NOW - ageMs, 1, List.of(copies));
    }

    static CopyStatus copy(int partition, CopyRole role, long lag) {
        return CopyStatus.running("s", "k", partition, role, lag, 100, 0);
    }

    @Test
    void groupsCopiesByTaskWithTheirNodesAndMarksOldStatusesUnreachable() {
        ClusterReport r = ClusterReport.of(List.of(
                node("b", 6_000, copy(1, CopyRole.ACTIVE, 5), copy(0, CopyRole.REPLICA, 1)),
                node("a", 200, copy(0, CopyRole.ACTIVE, 0), copy(1, CopyRole.STALE, -1))), NOW, 5_000);
        assertThat(r.nodes()).extracting(ClusterReport.NodeRow::nodeId).containsExactly("a", "b");
        assertThat(r.nodes()).extracting(ClusterReport.NodeRow::reachable).containsExactly(true, false);
        assertThat(r.tasks()).extracting(TaskRow::task).containsExactly("s/k-0", "s/k-1");
        TaskRow t0 = r.tasks().get(0);
        assertThat(t0.active().nodeId()).isEqualTo("a");
        assertThat(t0.replicas()).extracting(ClusterReport.CopyRow::nodeId).containsExactly("b");
        assertThat(t0.replicas().getFirst().reachable()).isFalse();
        TaskRow t1 = r.tasks().get(1);
        assertThat(t1.active().nodeId()).isEqualTo("b");
        assertThat(t1.active().lag()).isEqualTo(5);
        assertThat(t1.stale()).extracting(ClusterReport.CopyRow::nodeId).containsExactly("a");
    }

    @Test
    void whileATaskMovesTheReachableThenLatestActiveIsShown() {
        // the old owner died (unreachable) and still says active; the new one says active too
        ClusterReport r = ClusterReport.of(List.of(node("old", 9_000, copy(0, CopyRole.ACTIVE, 0)),
                node("new", 900, copy(0, CopyRole.ACTIVE, 40))), NOW, 5_000);
        assertThat(r.tasks().getFirst().active().nodeId()).isEqualTo("new");
        // both reachable: the latest status wins
        r = ClusterReport.of(List.of(node("x", 100, copy(0, CopyRole.ACTIVE, 0)),
                node("y", 800, copy(0, CopyRole.ACTIVE, 0))), NOW, 5_000);
        assertThat(r.tasks().getFirst().active().nodeId()).isEqualTo("x");
        // only replicas: no active
        r = ClusterReport.of(List.of(node("x", 100, copy(0, CopyRole.REPLICA, 0))), NOW, 5_000);
        assertThat(r.tasks().getFirst().active()).isNull();
    }

    @Test
    void partitionsSortNumerically() {
        ClusterReport r = ClusterReport.of(List.of(node("a", 0, copy(10, CopyRole.ACTIVE, 0), copy(2, CopyRole.ACTIVE, 0))),
                NOW, 5_000);
        assertThat(r.tasks()).extracting(TaskRow::partition).containsExactly(2, 10);
    }
}
