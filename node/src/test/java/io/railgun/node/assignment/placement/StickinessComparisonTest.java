package io.railgun.node.assignment.placement;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.node.assignment.AssignmentHolder;
import io.railgun.node.assignment.MemberAssignment;
import io.railgun.node.assignment.MemberInfo;
import io.railgun.node.assignment.TaskId;
import io.railgun.node.assignment.kafka.AssignmentDescriptor;
import io.railgun.node.assignment.kafka.RailgunAssignor;
import io.railgun.node.assignment.placement.GroupSimulation.Had;
import io.railgun.node.assignment.placement.GroupSimulation.SimMember;
import io.railgun.node.assignment.placement.GroupSimulation.SimNode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * How much data each rebalance makes the cluster move, with {@link RailgunAssignor} and with
 * Kafka's own {@link CooperativeStickyAssignor}, on the same random sequences of node failures,
 * restarts, departures and joins (seeded, so the table is reproducible). Both run through Kafka's
 * assignor API with the cooperative protocol: owned partitions in the subscriptions, moves of owned
 * partitions in two rebalances, each checked as {@code ConsumerCoordinator} checks it. A copy is
 * counted by what its node had of the task before the rebalance: a live copy (kept or promoted,
 * nothing to move), a stale one (only what changed since its checkpoint), or none (a full copy from
 * a peer, or a replay of the input). Kafka's assignor places actives only, so at R = 2 it is
 * compared on actives. Prints the table of {@code docs/distribution.md}.
 */
class StickinessComparisonTest {
    private static final int SEQUENCES = 200;
    private static final int EVENTS = 8;

    /** A rebalance through an assignor's Kafka API, repeated while moves wait for a revocation. */
    static final class ThroughKafka implements GroupSimulation.Strategy {
        private final boolean railgun;
        private int generation;
        /** Each member's assignor lives as long as the member: the leader's remembers its moves. */
        private final Map<String, RailgunAssignor> assignors = new HashMap<>();
        private String currentLeader;

        ThroughKafka(boolean railgun) {
            this.railgun = railgun;
        }

        @Override
        public String name() {
            return railgun ? "RailgunAssignor" : "CooperativeStickyAssignor";
        }

        @Override
        public Map<String, MemberAssignment> rebalance(GroupSimulation sim) {
            Cluster cluster = cluster(sim.tasks);
            Set<String> topics = new TreeSet<>();
            sim.tasks.forEach(t -> topics.add(t.topic()));
            for (int phase = 1; phase <= 5; phase++) {
                generation++;
                Map<String, Subscription> subs = new LinkedHashMap<>();
                for (SimMember m : sim.members()) {
                    ByteBuffer userData = null;
                    if (railgun) {
                        RailgunAssignor a = assignors.computeIfAbsent(m.memberId(), id -> {
                            RailgunAssignor created = new RailgunAssignor();
                            created.configure(Map.of(AssignmentHolder.CONFIG_KEY, holder(m),
                                    RailgunAssignor.REPLICATION_CONFIG, sim.replication));
                            return created;
                        });
                        userData = a.subscriptionUserData(topics);
                    }
                    subs.put(m.memberId(), new Subscription(List.copyOf(topics), userData, m.owned(), generation,
                            Optional.empty()));
                }
                // the coordinator keeps its leader while it stays in the group
                if (currentLeader == null || !subs.containsKey(currentLeader)) {
                    currentLeader = subs.keySet().iterator().next();
                }
                ConsumerPartitionAssignor leader = railgun ? assignors.get(currentLeader) : new CooperativeStickyAssignor();
                GroupAssignment result = leader.assign(cluster, new GroupSubscription(subs));
                assertThat(reassignedWhileOwned(subs, result)).as("cooperative rule").isEmpty();
                Map<String, MemberAssignment> plan = new HashMap<>();
                int actives = 0;
                for (Map.Entry<String, Assignment> e : result.groupAssignment().entrySet()) {
                    List<TaskId> tasks = e.getValue().partitions().stream()
                            .map(tp -> new TaskId(tp.topic(), tp.partition())).sorted().toList();
                    actives += tasks.size();
                    plan.put(e.getKey(), railgun ? AssignmentDescriptor.decode(e.getValue().userData(), tasks)
                            : new MemberAssignment(tasks, List.of(), Map.of()));
                }
                if (actives == sim.tasks.size()) {
                    return plan;
                }
                sim.apply(plan); // the owners revoke what was left out, then rejoin
            }
            throw new AssertionError(name() + " did not converge in 5 rebalances");
        }

        private static AssignmentHolder holder(SimMember m) {
            return new AssignmentHolder() {
                @Override
                public MemberInfo describe(String memberId) {
                    return m.info();
                }

                @Override
                public void planned(MemberAssignment plan, int generation) {}

                @Override
                public void rebalanceDue(String reason) {} // the simulation runs the follow-up rounds itself
            };
        }
    }

    static Cluster cluster(List<TaskId> tasks) {
        Node broker = new Node(0, "localhost", 9092);
        List<PartitionInfo> infos = tasks.stream()
                .map(t -> new PartitionInfo(t.topic(), t.partition(), broker, new Node[] {broker}, new Node[] {broker}))
                .toList();
        return new Cluster("c", List.of(broker), infos, Set.of(), Set.of());
    }

    /** What {@code ConsumerCoordinator#validateCooperativeAssignment} refuses. */
    static Set<TopicPartition> reassignedWhileOwned(Map<String, Subscription> subs, GroupAssignment result) {
        Set<TopicPartition> added = new HashSet<>();
        Set<TopicPartition> revoked = new HashSet<>();
        result.groupAssignment().forEach((member, a) -> {
            Set<TopicPartition> owned = new HashSet<>(subs.get(member).ownedPartitions());
            a.partitions().stream().filter(tp -> !owned.contains(tp)).forEach(added::add);
            owned.removeAll(a.partitions());
            revoked.addAll(owned);
        });
        added.retainAll(revoked);
        return added;
    }

    /** Runs the same seeded sequences with {@code railgun} or Kafka's assignor. */
    static GroupSimulation.Tally run(int replication, boolean railgun) {
        Random random = new Random(20_260_424L + replication);
        GroupSimulation.Tally total = new GroupSimulation.Tally();
        for (int s = 0; s < SEQUENCES; s++) {
            int partitions = 8 + random.nextInt(41);
            GroupSimulation sim = new GroupSimulation(TaskPlacementPropertyTest.tasks(partitions), replication);
            int initial = 3 + random.nextInt(3);
            for (int i = 0; i < initial; i++) {
                sim.join(1 + random.nextInt(2), Integer.MAX_VALUE);
            }
            ThroughKafka strategy = new ThroughKafka(railgun);
            sim.rebalance(strategy, new GroupSimulation.Tally()); // the first placement copies nothing: not counted
            for (int e = 0; e < EVENTS; e++) {
                int kind = random.nextInt(100);
                List<SimNode> up = sim.upNodes();
                List<SimNode> down = sim.downNodes();
                if (kind < 35 && up.size() > 2) {
                    sim.fail(up.get(random.nextInt(up.size())));
                } else if (kind < 65 && !down.isEmpty()) {
                    sim.comeBack(down.get(random.nextInt(down.size())));
                } else if (kind < 80 && up.size() > 2) {
                    sim.leave(up.get(random.nextInt(up.size())));
                } else {
                    sim.join(1 + random.nextInt(2), Integer.MAX_VALUE);
                }
                sim.rebalance(strategy, total);
            }
        }
        return total;
    }

    @Test
    void railgunMovesLessDataThanKafkasStickyAssignor() {
        long start = System.nanoTime();
        Map<String, GroupSimulation.Tally> rows = new LinkedHashMap<>();
        for (int r = 1; r <= 2; r++) {
            rows.put(r + " RailgunAssignor", run(r, true));
            rows.put(r + " CooperativeStickyAssignor", run(r, false));
        }
        StringBuilder table = new StringBuilder(String.format(
                "%n%d seeded sequences of %d events (fail, restart, leave, join) on 3-5 nodes of 1-2 units,"
                        + " 8-48 tasks; copies placed per rebalance, by what their node had before:%n",
                SEQUENCES, EVENTS));
        table.append(String.format("%-2s %-26s %10s | %8s %8s %8s | %8s %8s %8s | %s%n", "R", "assignor", "rebalances",
                "act:live", "act:stale", "act:none", "rep:live", "rep:stale", "rep:none", "active spread: mean, max"));
        rows.forEach((name, t) -> table.append(String.format("%-2s %-26s %10d | %8d %8d %8d | %8d %8d %8d | %.2f, %d%n",
                name.substring(0, 1), name.substring(2), t.rebalances,
                t.actives[Had.LIVE.ordinal()], t.actives[Had.STALE.ordinal()], t.actives[Had.NONE.ordinal()],
                t.replicas[Had.LIVE.ordinal()], t.replicas[Had.STALE.ordinal()], t.replicas[Had.NONE.ordinal()],
                (double) t.activeSpreadSum / t.rebalances, t.activeSpread)));
        table.append(String.format("(%.1f s)%n", (System.nanoTime() - start) / 1e9));
        System.out.print(table);

        GroupSimulation.Tally ours1 = rows.get("1 RailgunAssignor");
        GroupSimulation.Tally kafka1 = rows.get("1 CooperativeStickyAssignor");
        GroupSimulation.Tally ours2 = rows.get("2 RailgunAssignor");
        GroupSimulation.Tally kafka2 = rows.get("2 CooperativeStickyAssignor");
        int none = Had.NONE.ordinal();
        assertThat(ours1.actives[none]).as("R=1: actives with no copy on their node").isLessThanOrEqualTo(kafka1.actives[none]);
        assertThat(ours2.actives[none]).as("R=2: actives with no copy on their node").isLessThan(kafka2.actives[none]);
        assertThat(ours1.activeSpread).isLessThanOrEqualTo(2);
    }
}
