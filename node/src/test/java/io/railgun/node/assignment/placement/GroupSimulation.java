package io.railgun.node.assignment.placement;

import io.railgun.node.assignment.CopyRole;
import io.railgun.node.assignment.HeldCopy;
import io.railgun.node.assignment.MemberAssignment;
import io.railgun.node.assignment.MemberInfo;
import io.railgun.node.assignment.TaskId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/**
 * A task group over time, for property tests and the comparison with Kafka's sticky assignor:
 * nodes of one or more processor units fail, come back, leave and join; after each rebalance every
 * member holds what the plan gave it (live copies checkpoint at the current step), what it lost
 * stays on its node's disk as a stale copy, a failed node's copies vanish from the group until it
 * comes back (then as stale copies), and a node that leaves takes its disk with it.
 */
final class GroupSimulation {
    /** A physical node: its units' copies stay on its disk while it is down. */
    static final class SimNode {
        final String id;
        final int units;
        final int budget;
        boolean up = true;
        int incarnation;
        final List<Map<TaskId, HeldCopy>> held = new ArrayList<>();

        SimNode(String id, int units, int budget) {
            this.id = id;
            this.units = units;
            this.budget = budget;
            for (int u = 0; u < units; u++) {
                held.add(new TreeMap<>());
            }
        }

        String memberId(int unit) {
            return id + "-" + unit + "-" + incarnation;
        }
    }

    /** A processor unit of a node that is up: a member of the group. */
    record SimMember(SimNode node, int unit) {
        String memberId() {
            return node.memberId(unit);
        }

        MemberInfo info() {
            return new MemberInfo(memberId(), node.id, "http://" + node.id, unit, node.budget,
                    List.copyOf(node.held.get(unit).values()));
        }

        /** The partitions Kafka says this member owns: its active copies. */
        List<TopicPartition> owned() {
            List<TopicPartition> out = new ArrayList<>();
            for (HeldCopy h : node.held.get(unit).values()) {
                if (h.role() == CopyRole.ACTIVE) {
                    out.add(new TopicPartition(h.task().topic(), h.task().partition()));
                }
            }
            return out;
        }
    }

    /** How a rebalance places tasks; may run several phases, applying each with {@link #apply}. */
    interface Strategy {
        String name();

        Map<String, MemberAssignment> rebalance(GroupSimulation sim);
    }

    /** What a node had of a task before a rebalance. */
    enum Had { LIVE, STALE, NONE }

    final List<SimNode> nodes = new ArrayList<>();
    final List<TaskId> tasks;
    final int replication;
    private int step;
    private int nextNode;

    GroupSimulation(List<TaskId> tasks, int replication) {
        this.tasks = List.copyOf(tasks);
        this.replication = replication;
    }

    SimNode join(int units, int budget) {
        SimNode n = new SimNode(String.format("n%02d", nextNode++), units, budget);
        nodes.add(n);
        return n;
    }

    List<SimNode> upNodes() {
        return nodes.stream().filter(n -> n.up).toList();
    }

    List<SimNode> downNodes() {
        return nodes.stream().filter(n -> !n.up).toList();
    }

    /** SIGKILL: its members leave the group, its disk stays. */
    void fail(SimNode n) {
        n.up = false;
    }

    /** Restarted: a new incarnation whose copies are all stale. */
    void comeBack(SimNode n) {
        n.up = true;
        n.incarnation++;
        for (Map<TaskId, HeldCopy> unit : n.held) {
            unit.replaceAll((t, h) -> new HeldCopy(t, CopyRole.STALE, h.checkpointOffset()));
        }
    }

    /** Decommissioned: gone with its disk. */
    void leave(SimNode n) {
        nodes.remove(n);
    }

    List<SimMember> members() {
        List<SimMember> out = new ArrayList<>();
        for (SimNode n : upNodes()) {
            for (int u = 0; u < n.units; u++) {
                out.add(new SimMember(n, u));
            }
        }
        return out;
    }

    List<MemberInfo> memberInfos() {
        return members().stream().map(SimMember::info).toList();
    }

    /** What each up node had of each task (node level: files are per node). */
    Map<String, Map<TaskId, Had>> snapshot() {
        Map<String, Map<TaskId, Had>> out = new HashMap<>();
        for (SimNode n : upNodes()) {
            Map<TaskId, Had> had = new HashMap<>();
            for (Map<TaskId, HeldCopy> unit : n.held) {
                for (HeldCopy h : unit.values()) {
                    had.merge(h.task(), h.role() == CopyRole.STALE ? Had.STALE : Had.LIVE,
                            (a, b) -> a == Had.LIVE || b == Had.LIVE ? Had.LIVE : Had.STALE);
                }
            }
            out.put(n.id, had);
        }
        return out;
    }

    /** Every member now runs what {@code plan} gives it; what it no longer runs becomes stale. */
    void apply(Map<String, MemberAssignment> plan) {
        step++;
        for (SimMember m : members()) {
            MemberAssignment a = plan.getOrDefault(m.memberId(), new MemberAssignment(List.of(), List.of(), Map.of()));
            Map<TaskId, HeldCopy> held = m.node().held.get(m.unit());
            held.replaceAll((t, h) -> new HeldCopy(t, CopyRole.STALE, h.checkpointOffset()));
            for (TaskId t : a.actives()) {
                held.put(t, new HeldCopy(t, CopyRole.ACTIVE, step));
            }
            for (TaskId t : a.replicas()) {
                held.put(t, new HeldCopy(t, CopyRole.REPLICA, step));
            }
        }
        // a node's units share its disk: a task live on one unit has no stale copy on another
        for (SimNode n : upNodes()) {
            for (int u = 0; u < n.units; u++) {
                for (HeldCopy h : n.held.get(u).values()) {
                    if (h.role() != CopyRole.STALE) {
                        for (int v = 0; v < n.units; v++) {
                            if (v != u && n.held.get(v).containsKey(h.task())
                                    && n.held.get(v).get(h.task()).role() == CopyRole.STALE) {
                                n.held.get(v).remove(h.task());
                            }
                        }
                    }
                }
            }
        }
    }

    /** Copies placed by one rebalance, by what their node had before it. */
    static final class Tally {
        long rebalances;
        final long[] actives = new long[Had.values().length];
        final long[] replicas = new long[Had.values().length];
        long activeSpread;
        long activeSpreadSum;

        void add(Tally o) {
            rebalances += o.rebalances;
            for (int i = 0; i < actives.length; i++) {
                actives[i] += o.actives[i];
                replicas[i] += o.replicas[i];
            }
            activeSpread = Math.max(activeSpread, o.activeSpread);
            activeSpreadSum += o.activeSpreadSum;
        }

        /** Copies that needed a full transfer or a replay: their node held nothing of the task. */
        long copied() {
            return actives[Had.NONE.ordinal()] + replicas[Had.NONE.ordinal()];
        }
    }

    /** One rebalance with {@code strategy}: its final plan is applied and tallied against before. */
    Map<String, MemberAssignment> rebalance(Strategy strategy, Tally tally) {
        Map<String, Map<TaskId, Had>> before = snapshot();
        Map<String, String> nodeOf = new HashMap<>();
        for (SimMember m : members()) {
            nodeOf.put(m.memberId(), m.node().id);
        }
        Map<String, MemberAssignment> plan = strategy.rebalance(this);
        apply(plan);
        tally.rebalances++;
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (SimMember m : members()) {
            MemberAssignment a = plan.get(m.memberId());
            int n = a == null ? 0 : a.actives().size();
            min = Math.min(min, n);
            max = Math.max(max, n);
        }
        tally.activeSpread = Math.max(tally.activeSpread, max - min);
        tally.activeSpreadSum += max - min;
        plan.forEach((member, a) -> {
            Map<TaskId, Had> had = before.get(nodeOf.get(member));
            for (TaskId t : a.actives()) {
                tally.actives[had.getOrDefault(t, Had.NONE).ordinal()]++;
            }
            for (TaskId t : a.replicas()) {
                tally.replicas[had.getOrDefault(t, Had.NONE).ordinal()]++;
            }
        });
        return plan;
    }
}
