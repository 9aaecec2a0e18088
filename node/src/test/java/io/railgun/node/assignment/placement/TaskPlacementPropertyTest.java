package io.railgun.node.assignment.placement;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.node.assignment.CopyRole;
import io.railgun.node.assignment.HeldCopy;
import io.railgun.node.assignment.MemberAssignment;
import io.railgun.node.assignment.MemberAssignment.PeerCopy;
import io.railgun.node.assignment.MemberInfo;
import io.railgun.node.assignment.TaskId;
import io.railgun.node.assignment.placement.GroupSimulation.Had;
import io.railgun.node.assignment.placement.GroupSimulation.SimMember;
import io.railgun.node.assignment.placement.GroupSimulation.SimNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * {@link TaskPlacement} on random clusters (nodes of one or two units, budgets unlimited or small)
 * through random sequences of node failures, restarts, departures and joins: after every rebalance
 * every invariant of the plan holds, and the plan does not depend on the order of its input.
 */
class TaskPlacementPropertyTest {
    static final int NO_LIMIT = Integer.MAX_VALUE;

    /** Set by {@link #check} for the rebalance it checked: some task had no active owner before it. */
    private boolean anyOrphanBefore;

    @Property(tries = 150)
    void cooperativeRebalancesThroughTheAssignorConvergeAndPassKafkasCheck(
            @ForAll @IntRange(min = 1, max = 5) int initialNodes,
            @ForAll @IntRange(min = 0, max = 30) int partitions,
            @ForAll @IntRange(min = 1, max = 3) int replication,
            @ForAll boolean unlimited,
            @ForAll @Size(min = 1, max = 6) List<@IntRange(min = 1, max = 2) Integer> units,
            @ForAll @Size(min = 1, max = 6) List<@IntRange(min = 0, max = 12) Integer> budgets,
            @ForAll @Size(min = 1, max = 12) List<@IntRange(min = 0, max = 399) Integer> events) {
        GroupSimulation sim = new GroupSimulation(tasks(partitions), replication);
        for (int i = 0; i < initialNodes; i++) {
            join(sim, i, units, budgets, unlimited);
        }
        // ThroughKafka fails if a rebalance breaks ConsumerCoordinator's rule or needs over 5 rounds
        StickinessComparisonTest.ThroughKafka assignor = new StickinessComparisonTest.ThroughKafka(true);
        GroupSimulation.Tally tally = new GroupSimulation.Tally();
        sim.rebalance(assignor, tally);
        for (int e : events) {
            event(sim, e, units, budgets, unlimited);
            Map<String, MemberAssignment> plan = sim.rebalance(assignor, tally);
            assertThat(plan.values().stream().mapToInt(a -> a.actives().size()).sum()).isEqualTo(partitions);
        }
    }

    static List<TaskId> tasks(int partitions) {
        List<TaskId> out = new ArrayList<>();
        int login = partitions / 3;
        for (int p = 0; p < partitions - login; p++) {
            out.add(new TaskId("railgun.s.pay.1.card", p));
        }
        for (int p = 0; p < login; p++) {
            out.add(new TaskId("railgun.s.login.1.user", p));
        }
        return out;
    }

    /** One event of a sequence: 0 fail, 1 come back, 2 leave, 3 join; {@code pick} chooses the node. */
    static void event(GroupSimulation sim, int code, List<Integer> units, List<Integer> budgets, boolean unlimited) {
        int kind = code % 4;
        int pick = code / 4;
        List<SimNode> up = sim.upNodes();
        List<SimNode> down = sim.downNodes();
        switch (kind) {
            case 0 -> {
                if (up.size() > 1) {
                    sim.fail(up.get(pick % up.size()));
                }
            }
            case 1 -> {
                if (!down.isEmpty()) {
                    sim.comeBack(down.get(pick % down.size()));
                }
            }
            case 2 -> {
                if (up.size() > 1) {
                    sim.leave(up.get(pick % up.size()));
                }
            }
            default -> join(sim, pick, units, budgets, unlimited);
        }
    }

    static void join(GroupSimulation sim, int i, List<Integer> units, List<Integer> budgets, boolean unlimited) {
        sim.join(units.get(i % units.size()), unlimited ? NO_LIMIT : budgets.get(i % budgets.size()));
    }

    @Property(tries = 300)
    void everyInvariantHoldsAfterEveryRebalance(
            @ForAll @IntRange(min = 1, max = 5) int initialNodes,
            @ForAll @IntRange(min = 0, max = 30) int partitions,
            @ForAll @IntRange(min = 1, max = 3) int replication,
            @ForAll boolean unlimited,
            @ForAll @Size(min = 1, max = 6) List<@IntRange(min = 1, max = 2) Integer> units,
            @ForAll @Size(min = 1, max = 6) List<@IntRange(min = 0, max = 12) Integer> budgets,
            @ForAll @Size(min = 1, max = 15) List<@IntRange(min = 0, max = 399) Integer> events) {
        GroupSimulation sim = new GroupSimulation(tasks(partitions), replication);
        for (int i = 0; i < initialNodes; i++) {
            join(sim, i, units, budgets, unlimited);
        }
        GroupSimulation.Strategy placement = new GroupSimulation.Strategy() {
            @Override
            public String name() {
                return "TaskPlacement";
            }

            @Override
            public Map<String, MemberAssignment> rebalance(GroupSimulation s) {
                List<MemberInfo> members = s.memberInfos();
                Map<String, MemberAssignment> plan = TaskPlacement.place(members, s.tasks, s.replication);
                check(s, plan, unlimited);
                return plan;
            }
        };
        GroupSimulation.Tally tally = new GroupSimulation.Tally();
        sim.rebalance(placement, tally);
        for (int e : events) {
            event(sim, e, units, budgets, unlimited);
            sim.rebalance(placement, tally);
            if (unlimited) {
                // nothing changed, nobody orphaned: the actives stay where they are
                Map<String, MemberAssignment> again = TaskPlacement.place(sim.memberInfos(), sim.tasks, replication);
                for (SimMember m : sim.members()) {
                    List<TaskId> running = m.node().held.get(m.unit()).values().stream()
                            .filter(h -> h.role() == CopyRole.ACTIVE).map(HeldCopy::task).sorted().toList();
                    if (!anyOrphanBefore) {
                        assertThat(again.get(m.memberId()).actives()).as("stable actives of %s", m.memberId())
                                .isEqualTo(running);
                    }
                }
            }
        }
    }

    /** The plan's invariants, checked against the group as it was before the rebalance. */
    void check(GroupSimulation sim, Map<String, MemberAssignment> plan, boolean unlimited) {
        List<SimMember> members = sim.members();
        Map<String, Map<TaskId, Had>> before = sim.snapshot();
        Map<String, SimMember> byId = new HashMap<>();
        members.forEach(m -> byId.put(m.memberId(), m));
        assertThat(plan.keySet()).isEqualTo(byId.keySet());
        if (members.isEmpty()) {
            return;
        }
        int nodes = sim.upNodes().size();
        int wanted = Math.min(sim.replication, nodes);
        Set<TaskId> orphans = new HashSet<>(sim.tasks);
        Map<TaskId, Set<String>> liveNodes = new HashMap<>();
        for (SimMember m : members) {
            for (HeldCopy h : m.node().held.get(m.unit()).values()) {
                if (h.role() == CopyRole.ACTIVE) {
                    orphans.remove(h.task());
                }
                if (h.role() == CopyRole.REPLICA || h.role() == CopyRole.ACTIVE) {
                    liveNodes.computeIfAbsent(h.task(), t -> new HashSet<>()).add(m.node().id);
                }
            }
        }
        anyOrphanBefore = !orphans.isEmpty();

        Map<TaskId, List<String>> activeOn = new HashMap<>();
        Map<TaskId, List<String>> copyNodes = new HashMap<>();
        boolean everyoneAtBudget = true;
        for (Map.Entry<String, MemberAssignment> e : plan.entrySet()) {
            SimMember m = byId.get(e.getKey());
            MemberAssignment a = e.getValue();
            for (TaskId t : a.actives()) {
                activeOn.computeIfAbsent(t, x -> new ArrayList<>()).add(m.node().id);
                copyNodes.computeIfAbsent(t, x -> new ArrayList<>()).add(m.node().id);
            }
            for (TaskId t : a.replicas()) {
                copyNodes.computeIfAbsent(t, x -> new ArrayList<>()).add(m.node().id);
            }
            int load = a.actives().size() + a.replicas().size();
            everyoneAtBudget &= load >= m.node().budget;
        }
        for (Map.Entry<String, MemberAssignment> e : plan.entrySet()) {
            SimMember m = byId.get(e.getKey());
            MemberAssignment a = e.getValue();
            if (a.actives().size() + a.replicas().size() > m.node().budget) {
                assertThat(a.replicas()).as("a member over budget runs actives only").isEmpty();
                assertThat(everyoneAtBudget).as("over budget only when every member is at its budget").isTrue();
            }
        }
        for (TaskId t : sim.tasks) {
            assertThat(activeOn.get(t)).as("actives of %s", t).hasSize(1);
            List<String> copies = copyNodes.get(t);
            assertThat(copies).as("nodes of the copies of %s", t).doesNotHaveDuplicates();
            if (unlimited) {
                assertThat(copies).as("copies of %s", t).hasSize(wanted);
            } else {
                assertThat(copies.size()).as("copies of %s", t).isBetween(1, wanted);
            }
            if (unlimited && orphans.contains(t) && liveNodes.containsKey(t)) {
                assertThat(liveNodes.get(t)).as("a failover of %s promotes a live copy", t)
                        .contains(activeOn.get(t).getFirst());
            }
        }
        if (unlimited && orphans.isEmpty()) {
            int min = plan.values().stream().mapToInt(a -> a.actives().size()).min().orElseThrow();
            int max = plan.values().stream().mapToInt(a -> a.actives().size()).max().orElseThrow();
            assertThat(max - min).as("active balance").isLessThanOrEqualTo(1);
        }
        checkSources(members, plan, before, byId);

        List<MemberInfo> shuffled = new ArrayList<>(sim.memberInfos());
        Collections.shuffle(shuffled, new Random(shuffled.size()));
        List<TaskId> reversed = new ArrayList<>(sim.tasks);
        Collections.reverse(reversed);
        assertThat(TaskPlacement.place(shuffled, reversed, sim.replication)).as("determinism").isEqualTo(plan);
    }

    private static void checkSources(List<SimMember> members, Map<String, MemberAssignment> plan,
            Map<String, Map<TaskId, Had>> before, Map<String, SimMember> byId) {
        Map<TaskId, Map<String, Long>> bestOffset = new HashMap<>();
        for (SimMember m : members) {
            for (HeldCopy h : m.node().held.get(m.unit()).values()) {
                bestOffset.computeIfAbsent(h.task(), t -> new HashMap<>())
                        .merge(m.node().id, h.checkpointOffset(), Math::max);
            }
        }
        plan.forEach((id, a) -> {
            String node = byId.get(id).node().id;
            List<TaskId> assigned = new ArrayList<>(a.actives());
            assigned.addAll(a.replicas());
            assertThat(assigned).containsAll(a.sources().keySet());
            for (TaskId t : assigned) {
                Had had = before.get(node).getOrDefault(t, Had.NONE);
                List<PeerCopy> peers = a.sources().get(t);
                Map<String, Long> holders = new HashMap<>(bestOffset.getOrDefault(t, Map.of()));
                holders.remove(node);
                switch (had) {
                    case LIVE -> assertThat(peers).as("no transfer for a node running %s", t).isNull();
                    case NONE -> assertThat(peers).as("sources of %s on %s", t, node).isNotNull()
                            .extracting(PeerCopy::nodeId).containsExactlyInAnyOrderElementsOf(holders.keySet());
                    case STALE -> {
                        long own = bestOffset.get(t).get(node);
                        boolean newer = holders.values().stream().anyMatch(o -> o > own);
                        assertThat(peers != null).as("sources for a stale %s on %s", t, node).isEqualTo(newer);
                        if (peers != null) {
                            assertThat(peers).allMatch(p -> p.checkpointOffset() > own);
                        }
                    }
                }
                if (peers != null) {
                    for (int i = 1; i < peers.size(); i++) {
                        assertThat(peers.get(i - 1).checkpointOffset()).isGreaterThanOrEqualTo(peers.get(i).checkpointOffset());
                    }
                    assertThat(peers).allMatch(p -> !p.nodeId().equals(node) && p.nodeUrl().equals("http://" + p.nodeId()));
                }
            }
        });
    }
}
