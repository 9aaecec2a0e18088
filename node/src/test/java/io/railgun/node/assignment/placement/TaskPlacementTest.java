package io.railgun.node.assignment.placement;

import static io.railgun.node.assignment.CopyRole.ACTIVE;
import static io.railgun.node.assignment.CopyRole.REPLICA;
import static io.railgun.node.assignment.CopyRole.STALE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railgun.node.assignment.CopyRole;
import io.railgun.node.assignment.HeldCopy;
import io.railgun.node.assignment.MemberAssignment;
import io.railgun.node.assignment.MemberAssignment.PeerCopy;
import io.railgun.node.assignment.MemberInfo;
import io.railgun.node.assignment.TaskId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class TaskPlacementTest {
    private static final int NO_LIMIT = Integer.MAX_VALUE;

    static TaskId task(int p) {
        return new TaskId("railgun.s.pay.1.card", p);
    }

    static List<TaskId> tasks(int n) {
        return IntStream.range(0, n).mapToObj(TaskPlacementTest::task).toList();
    }

    static MemberInfo member(String node, int unit, int budget, HeldCopy... held) {
        return new MemberInfo(node + "-" + unit, node, "https://" + node + ":7071", unit, budget, List.of(held));
    }

    static HeldCopy held(int p, CopyRole role, long offset) {
        return new HeldCopy(task(p), role, offset);
    }

    @Test
    void keepsEveryActiveOnItsOwnerWhenNothingChanged() {
        List<MemberInfo> members = List.of(
                member("a", 0, NO_LIMIT, held(0, ACTIVE, 5), held(3, ACTIVE, 5)),
                member("b", 0, NO_LIMIT, held(1, ACTIVE, 5), held(2, ACTIVE, 5)));
        Map<String, MemberAssignment> plan = TaskPlacement.place(members, tasks(4), 1);
        assertThat(plan.get("a-0").actives()).containsExactly(task(0), task(3));
        assertThat(plan.get("b-0").actives()).containsExactly(task(1), task(2));
        assertThat(plan.get("a-0").sources()).isEmpty();
    }

    @Test
    void promotesTheReplicaWhenTheActiveOwnerIsGone() {
        // c held tasks 0 and 1 as active and is gone; b holds replicas of both, a of none
        List<MemberInfo> members = List.of(
                member("a", 0, NO_LIMIT, held(2, ACTIVE, 9), held(3, REPLICA, 9)),
                member("b", 0, NO_LIMIT, held(0, REPLICA, 9), held(1, REPLICA, 9), held(3, ACTIVE, 9),
                        held(2, REPLICA, 9)));
        Map<String, MemberAssignment> plan = TaskPlacement.place(members, tasks(4), 2);
        // b is over its fair share of actives (3 of 4) but a failover never waits for a copy
        assertThat(plan.get("b-0").actives()).containsExactly(task(0), task(1), task(3));
        assertThat(plan.get("a-0").actives()).containsExactly(task(2));
        assertThat(plan.get("a-0").replicas()).containsExactly(task(0), task(1), task(3));
        assertThat(plan.get("b-0").sources()).isEmpty();
        // a recovers 0 and 1 from b
        assertThat(plan.get("a-0").sources().get(task(0)))
                .containsExactly(new PeerCopy("b", "https://b:7071", REPLICA, 9));
    }

    @Test
    void aJoiningMemberTakesItsShareFromTheMostLoaded() {
        List<MemberInfo> members = List.of(
                member("a", 0, NO_LIMIT, held(0, ACTIVE, 1), held(1, ACTIVE, 1), held(2, ACTIVE, 1)),
                member("b", 0, NO_LIMIT, held(3, ACTIVE, 1)),
                member("c", 0, NO_LIMIT));
        Map<String, MemberAssignment> plan = TaskPlacement.place(members, tasks(4), 1);
        assertThat(plan.get("a-0").actives()).containsExactly(task(0), task(1));
        assertThat(plan.get("b-0").actives()).containsExactly(task(3));
        assertThat(plan.get("c-0").actives()).containsExactly(task(2));
        assertThat(plan.get("c-0").sources()).containsEntry(task(2),
                List.of(new PeerCopy("a", "https://a:7071", ACTIVE, 1)));
    }

    @Test
    void theMostRecentStaleCopyWinsThenTheLeastLoaded() {
        List<MemberInfo> members = List.of(
                member("a", 0, NO_LIMIT, held(0, STALE, 10)),
                member("b", 0, NO_LIMIT, held(0, STALE, 30)),
                member("c", 0, NO_LIMIT, held(0, STALE, 20)),
                member("d", 0, NO_LIMIT));
        Map<String, MemberAssignment> plan = TaskPlacement.place(members, tasks(1), 3);
        assertThat(plan.get("b-0").actives()).containsExactly(task(0));
        assertThat(plan.get("c-0").replicas()).containsExactly(task(0));
        assertThat(plan.get("a-0").replicas()).containsExactly(task(0));
        assertThat(plan.get("d-0").replicas()).isEmpty();
        // a's stale copy (10) hears of the more recent copies only, best first
        assertThat(plan.get("a-0").sources().get(task(0))).extracting(PeerCopy::nodeId).containsExactly("b", "c");
        // b has the most recent copy: nothing to fetch
        assertThat(plan.get("b-0").sources()).isEmpty();
    }

    @Test
    void sourcesRankByCheckpointThenActiveBeforeReplicaBeforeStaleThenNode() {
        List<MemberInfo> members = List.of(
                member("a", 0, NO_LIMIT, held(0, STALE, 50)),
                member("b", 0, NO_LIMIT, held(0, REPLICA, 50)),
                member("c", 0, NO_LIMIT, held(0, ACTIVE, 50)),
                member("d", 0, NO_LIMIT, held(0, STALE, 70)),
                member("e", 0, 0, held(0, STALE, 50)),
                member("f", 0, NO_LIMIT, held(1, ACTIVE, 1), held(2, ACTIVE, 1)));
        // f has no copy of task 0: where it would copy it from, one entry per node
        CopyIndex index = new CopyIndex(members);
        int f = 5;
        assertThat(index.sources(task(0), f)).extracting(PeerCopy::nodeId).containsExactly("d", "c", "b", "a", "e");
    }

    @Test
    void neverTwoCopiesOfATaskOnOneNodeAndFewerReplicasWhenNodesAreFewerThanR() {
        List<MemberInfo> members = List.of(
                member("a", 0, NO_LIMIT), member("a", 1, NO_LIMIT), member("b", 0, NO_LIMIT), member("b", 1, NO_LIMIT));
        Map<String, MemberAssignment> plan = TaskPlacement.place(members, tasks(8), 3);
        for (TaskId t : tasks(8)) {
            List<String> nodes = new ArrayList<>();
            plan.forEach((id, a) -> {
                if (a.actives().contains(t) || a.replicas().contains(t)) {
                    nodes.add(id.substring(0, 1));
                }
            });
            assertThat(nodes).as("copies of %s", t).hasSize(2).doesNotHaveDuplicates();
        }
        plan.values().forEach(a -> assertThat(a.actives()).hasSize(2));
        plan.values().forEach(a -> assertThat(a.actives().size() + a.replicas().size()).isEqualTo(4));
        // a fresh cluster: every copy is rebuilt from the input, and the plan says so
        assertThat(plan.get("a-0").sources().values()).allMatch(List::isEmpty);
    }

    @Test
    void aSiblingUnitsCopyNeedsNoTransfer() {
        // a-0 runs task 0 but is over budget (0): a-1 on the same node takes it, with no sources
        List<MemberInfo> members = List.of(
                member("a", 0, 0, held(0, ACTIVE, 3)), member("a", 1, NO_LIMIT), member("b", 0, NO_LIMIT));
        Map<String, MemberAssignment> plan = TaskPlacement.place(members, tasks(1), 1);
        assertThat(plan.get("a-1").actives()).containsExactly(task(0));
        assertThat(plan.get("a-1").sources()).isEmpty();
    }

    @Test
    void whenTheBudgetsAreTooSmallActivesGoOverBudgetOnTheLeastLoadedAndReplicasAreLeftOut() {
        List<MemberInfo> members = List.of(member("a", 0, 2), member("b", 0, 1), member("c", 0, 0));
        Map<String, MemberAssignment> plan = TaskPlacement.place(members, tasks(6), 2);
        assertThat(plan.values().stream().mapToInt(a -> a.actives().size()).sum()).isEqualTo(6);
        assertThat(plan.values().stream().mapToInt(a -> a.replicas().size()).sum()).isZero();
        // within budget first (a 2, b 1), then the other 3 go to the least loaded one at a time
        assertThat(plan.get("a-0").actives()).hasSize(2);
        assertThat(plan.get("b-0").actives()).hasSize(2);
        assertThat(plan.get("c-0").actives()).hasSize(2);
    }

    @Test
    void aSmallBudgetStillGetsReplicasOnceActivesFit() {
        List<MemberInfo> members = List.of(member("a", 0, 3), member("b", 0, 3), member("c", 0, 1));
        Map<String, MemberAssignment> plan = TaskPlacement.place(members, tasks(4), 2);
        // 8 copies wanted, 7 budget: all 4 actives, 3 replicas, nobody over budget
        assertThat(plan.values().stream().mapToInt(a -> a.actives().size()).sum()).isEqualTo(4);
        assertThat(plan.values().stream().mapToInt(a -> a.replicas().size()).sum()).isEqualTo(3);
        assertThat(plan.get("c-0").actives().size() + plan.get("c-0").replicas().size()).isEqualTo(1);
    }

    @Test
    void onlyMembersSubscribingToATopicGetItsTasks() {
        TaskId other = new TaskId("railgun.s.new.1.card", 0);
        List<MemberInfo> members = List.of(member("a", 0, NO_LIMIT), member("b", 0, NO_LIMIT));
        Map<String, MemberAssignment> plan = TaskPlacement.place(members, List.of(task(0), task(1), other), 2,
                Map.of("a-0", Set.of(task(0).topic())));
        assertThat(plan.get("b-0").actives()).contains(other);
        assertThat(plan.get("a-0").replicas()).doesNotContain(other);
    }

    @Test
    void aMoveThePreviousPlanStartedIsFinishedOnItsPlannedMember() {
        // a-0 revoked task 0 for c-0 (a cooperative handover); b-0 runs a replica of it
        List<MemberInfo> members = List.of(
                member("a", 0, NO_LIMIT, held(0, STALE, 8), held(1, ACTIVE, 8), held(2, ACTIVE, 8)),
                member("b", 0, NO_LIMIT, held(0, REPLICA, 8), held(3, ACTIVE, 8)),
                member("c", 0, NO_LIMIT));
        Map<String, MemberAssignment> fromScratch = TaskPlacement.place(members, tasks(4), 2);
        assertThat(fromScratch.get("b-0").actives()).contains(task(0));
        Map<String, MemberAssignment> finished = TaskPlacement.place(members, tasks(4), 2, Map.of(), Map.of(task(0), "c-0"));
        assertThat(finished.get("c-0").actives()).containsExactly(task(0));
        assertThat(finished.get("b-0").actives()).containsExactly(task(3));
        // ignored when the planned member is gone, or the task has an active owner again
        assertThat(TaskPlacement.place(members, tasks(4), 2, Map.of(), Map.of(task(0), "gone"))).isEqualTo(fromScratch);
        assertThat(TaskPlacement.place(members, tasks(4), 2, Map.of(), Map.of(task(1), "c-0")).get("a-0").actives())
                .contains(task(1));
    }

    @Test
    void theSameInputInAnyOrderGivesTheSamePlan() {
        Random random = new Random(7);
        List<MemberInfo> members = new ArrayList<>();
        for (int node = 0; node < 4; node++) {
            for (int unit = 0; unit < 2; unit++) {
                List<HeldCopy> held = new ArrayList<>();
                for (int p = 0; p < 12; p++) {
                    if (random.nextInt(4) == 0) {
                        held.add(held(p, CopyRole.values()[random.nextInt(3)], random.nextInt(3)));
                    }
                }
                members.add(new MemberInfo("m" + node + unit, "n" + node, "u" + node, unit, 5, held));
            }
        }
        Map<String, MemberAssignment> first = TaskPlacement.place(members, tasks(12), 2);
        for (int i = 0; i < 20; i++) {
            List<MemberInfo> shuffled = new ArrayList<>(members);
            Collections.shuffle(shuffled, random);
            List<TaskId> shuffledTasks = new ArrayList<>(tasks(12));
            Collections.shuffle(shuffledTasks, random);
            assertThat(TaskPlacement.place(shuffled, shuffledTasks, 2)).isEqualTo(first);
        }
    }

    @Test
    void refusesBadInput() {
        assertThatThrownBy(() -> TaskPlacement.place(List.of(member("a", 0, 1)), tasks(1), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("replication");
        assertThatThrownBy(() -> TaskPlacement.place(List.of(member("a", 0, 1), member("a", 0, 1)), tasks(1), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
    }

    @Test
    void noMembersNoTasksNoPlan() {
        assertThat(TaskPlacement.place(List.of(), tasks(3), 2)).isEmpty();
        assertThat(TaskPlacement.place(List.of(member("a", 0, 1)), List.of(), 2).get("a-0").actives()).isEmpty();
    }
}
