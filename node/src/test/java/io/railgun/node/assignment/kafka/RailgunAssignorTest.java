package io.railgun.node.assignment.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railgun.node.assignment.AssignmentHolder;
import io.railgun.node.assignment.CopyRole;
import io.railgun.node.assignment.HeldCopy;
import io.railgun.node.assignment.MemberAssignment;
import io.railgun.node.assignment.MemberInfo;
import io.railgun.node.assignment.TaskId;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.RebalanceProtocol;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class RailgunAssignorTest {
    private static final String TOPIC = "railgun.s.pay.1.card";
    private static final String OTHER = "railgun.s.login.1.user";

    /** A processor unit as the assignor sees it: what it holds, and the plans it was given. */
    static final class FakeUnit implements AssignmentHolder {
        final String nodeId;
        final int unit;
        List<HeldCopy> held = new ArrayList<>();
        final List<MemberAssignment> plans = new ArrayList<>();
        final List<Integer> generations = new ArrayList<>();
        final List<String> rebalancesAsked = new ArrayList<>();

        FakeUnit(String nodeId, int unit) {
            this.nodeId = nodeId;
            this.unit = unit;
        }

        @Override
        public MemberInfo describe(String memberId) {
            return new MemberInfo(memberId, nodeId, "https://" + nodeId + ":7071", unit, Integer.MAX_VALUE, held);
        }

        @Override
        public void planned(MemberAssignment plan, int generation) {
            plans.add(plan);
            generations.add(generation);
        }

        @Override
        public void rebalanceDue(String reason) {
            rebalancesAsked.add(reason);
        }
    }

    static RailgunAssignor assignor(FakeUnit unit, Object replication) {
        RailgunAssignor a = new RailgunAssignor();
        Map<String, Object> configs = new HashMap<>();
        configs.put(AssignmentHolder.CONFIG_KEY, unit);
        configs.put("client.id", "unit-0");
        if (replication != null) {
            configs.put(RailgunAssignor.REPLICATION_CONFIG, replication);
        }
        a.configure(configs);
        return a;
    }

    static Cluster cluster(Map<String, Integer> partitions) {
        Node broker = new Node(0, "localhost", 9092);
        List<PartitionInfo> infos = new ArrayList<>();
        partitions.forEach((topic, n) -> {
            for (int p = 0; p < n; p++) {
                infos.add(new PartitionInfo(topic, p, broker, new Node[] {broker}, new Node[] {broker}));
            }
        });
        return new Cluster("test", List.of(broker), infos, Set.of(), Set.of());
    }

    static TaskId task(int p) {
        return new TaskId(TOPIC, p);
    }

    static TopicPartition tp(int p) {
        return new TopicPartition(TOPIC, p);
    }

    /** What ConsumerCoordinator#validateCooperativeAssignment refuses (it is private there). */
    static Set<TopicPartition> reassignedWhileOwned(Map<String, Subscription> subs, GroupAssignment result) {
        Set<TopicPartition> added = new HashSet<>();
        Set<TopicPartition> revoked = new HashSet<>();
        result.groupAssignment().forEach((member, a) -> {
            Set<TopicPartition> owned = new HashSet<>(subs.get(member).ownedPartitions());
            for (TopicPartition tp : a.partitions()) {
                if (!owned.contains(tp)) {
                    added.add(tp);
                }
            }
            owned.removeAll(a.partitions());
            revoked.addAll(owned);
        });
        added.retainAll(revoked);
        return added;
    }

    static Subscription subscription(RailgunAssignor a, List<String> topics, List<TopicPartition> owned) {
        return new Subscription(topics, a.subscriptionUserData(Set.copyOf(topics)), owned, 1, Optional.empty());
    }

    @Test
    void configurationTakesTheHolderObjectAndTheReplicationAsIntegerOrString() {
        FakeUnit unit = new FakeUnit("a", 0);
        assertThat(assignor(unit, null).name()).isEqualTo("railgun");
        assertThat(assignor(unit, 2)).isNotNull();
        assertThat(assignor(unit, " 3 ")).isNotNull();
        assertThat(assignor(unit, 2).supportedProtocols())
                .containsExactly(RebalanceProtocol.COOPERATIVE, RebalanceProtocol.EAGER);
        assertThatThrownBy(() -> assignor(unit, "two")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("railgun.replication");
        assertThatThrownBy(() -> assignor(unit, 0)).isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> new RailgunAssignor().configure(Map.of(AssignmentHolder.CONFIG_KEY, "not a holder")))
                .isInstanceOf(ConfigException.class).hasMessageContaining(AssignmentHolder.CONFIG_KEY);
    }

    @Test
    void handsOutActivesAsPartitionsAndReplicasAndSourcesInUserData() {
        FakeUnit a = new FakeUnit("a", 0);
        FakeUnit b = new FakeUnit("b", 0);
        a.held = List.of(new HeldCopy(task(0), CopyRole.ACTIVE, 40), new HeldCopy(task(1), CopyRole.ACTIVE, 41));
        RailgunAssignor ra = assignor(a, 2);
        RailgunAssignor rb = assignor(b, "2");
        Map<String, Subscription> subs = new TreeMap<>();
        subs.put("ma", subscription(ra, List.of(TOPIC), List.of(tp(0), tp(1))));
        subs.put("mb", subscription(rb, List.of(TOPIC), List.of()));
        GroupAssignment result = ra.assign(cluster(Map.of(TOPIC, 4)), new GroupSubscription(subs));

        assertThat(result.groupAssignment().get("ma").partitions()).containsExactlyInAnyOrder(tp(0), tp(1));
        assertThat(result.groupAssignment().get("mb").partitions()).containsExactlyInAnyOrder(tp(2), tp(3));
        assertThat(reassignedWhileOwned(subs, result)).isEmpty();

        rb.onAssignment(result.groupAssignment().get("mb"), new ConsumerGroupMetadata("railgun-tasks", 7, "mb", Optional.empty()));
        MemberAssignment plan = b.plans.getFirst();
        assertThat(b.generations).containsExactly(7);
        assertThat(plan.actives()).containsExactly(task(2), task(3));
        assertThat(plan.replicas()).containsExactly(task(0), task(1));
        // b recovers 0 and 1 from a; 2 and 3 exist nowhere (empty list: rebuild from the input)
        assertThat(plan.sources().get(task(0))).extracting(MemberAssignment.PeerCopy::nodeId).containsExactly("a");
        assertThat(plan.sources().get(task(0)).getFirst().checkpointOffset()).isEqualTo(40);
        assertThat(plan.sources().get(task(2))).isEmpty();
    }

    @Test
    void cooperativeMovesTakeTwoRebalancesAndNeverAssignAnOwnedPartition() {
        FakeUnit a = new FakeUnit("a", 0);
        FakeUnit b = new FakeUnit("b", 0);
        List<TopicPartition> all = List.of(tp(0), tp(1), tp(2), tp(3));
        a.held = all.stream().map(tp -> new HeldCopy(task(tp.partition()), CopyRole.ACTIVE, 9)).toList();
        RailgunAssignor ra = assignor(a, 1);
        RailgunAssignor rb = assignor(b, 1);
        Cluster cluster = cluster(Map.of(TOPIC, 4));

        // b joins: a owns all four; the plan gives b two of them, which a must revoke first
        Map<String, Subscription> first = new TreeMap<>(Map.of(
                "ma", subscription(ra, List.of(TOPIC), all), "mb", subscription(rb, List.of(TOPIC), List.of())));
        GroupAssignment r1 = ra.assign(cluster, new GroupSubscription(first));
        assertThat(reassignedWhileOwned(first, r1)).isEmpty();
        List<TopicPartition> keptByA = r1.groupAssignment().get("ma").partitions();
        assertThat(keptByA).hasSize(2);
        assertThat(r1.groupAssignment().get("mb").partitions()).isEmpty();
        rb.onAssignment(r1.groupAssignment().get("mb"), new ConsumerGroupMetadata("g", 2, "mb", Optional.empty()));
        ra.onAssignment(r1.groupAssignment().get("ma"), new ConsumerGroupMetadata("g", 2, "ma", Optional.empty()));
        assertThat(b.plans.getLast().actives()).isEmpty();
        // the plan says a follow-up is due, so each member asks for it (even one Kafka would not make rejoin)
        assertThat(b.rebalancesAsked).singleElement().asString().contains("follow-up");
        assertThat(a.rebalancesAsked).singleElement().asString().contains("follow-up");
        // meanwhile b runs the two as replicas, copied from a at once (promoted in place by the follow-up)
        List<TaskId> withheld = all.stream().filter(tp -> !keptByA.contains(tp)).map(tp -> task(tp.partition())).toList();
        assertThat(b.plans.getLast().replicas()).containsExactlyInAnyOrderElementsOf(withheld);
        assertThat(b.plans.getLast().sources().keySet()).containsExactlyInAnyOrderElementsOf(withheld);

        // a revoked two partitions (its files stay, stale) and rejoins: the follow-up assigns them to b
        List<HeldCopy> afterRevoke = new ArrayList<>();
        for (TopicPartition tp : all) {
            afterRevoke.add(new HeldCopy(task(tp.partition()), keptByA.contains(tp) ? CopyRole.ACTIVE : CopyRole.STALE, 9));
        }
        a.held = afterRevoke;
        Map<String, Subscription> second = new TreeMap<>(Map.of(
                "ma", subscription(ra, List.of(TOPIC), keptByA), "mb", subscription(rb, List.of(TOPIC), List.of())));
        GroupAssignment r2 = ra.assign(cluster, new GroupSubscription(second));
        assertThat(reassignedWhileOwned(second, r2)).isEmpty();
        assertThat(r2.groupAssignment().get("ma").partitions()).containsExactlyInAnyOrderElementsOf(keptByA);
        List<TopicPartition> movedToB = r2.groupAssignment().get("mb").partitions();
        assertThat(movedToB).hasSize(2).doesNotContainAnyElementsOf(keptByA);
        rb.onAssignment(r2.groupAssignment().get("mb"), new ConsumerGroupMetadata("g", 3, "mb", Optional.empty()));
        assertThat(b.rebalancesAsked).as("the follow-up's plan is final").hasSize(1);
        assertThat(b.plans.getLast().sources().keySet())
                .containsExactlyInAnyOrderElementsOf(movedToB.stream().map(tp -> task(tp.partition())).toList());
        assertThat(b.plans.getLast().sources().get(task(movedToB.getFirst().partition())).getFirst().role())
                .isEqualTo(CopyRole.STALE);

        // stable: a third rebalance with nothing changed moves nothing
        b.held = movedToB.stream().map(tp -> new HeldCopy(task(tp.partition()), CopyRole.ACTIVE, 9)).toList();
        Map<String, Subscription> third = new TreeMap<>(Map.of(
                "ma", subscription(ra, List.of(TOPIC), keptByA), "mb", subscription(rb, List.of(TOPIC), movedToB)));
        GroupAssignment r3 = ra.assign(cluster, new GroupSubscription(third));
        assertThat(r3.groupAssignment().get("ma").partitions()).containsExactlyInAnyOrderElementsOf(keptByA);
        assertThat(r3.groupAssignment().get("mb").partitions()).containsExactlyInAnyOrderElementsOf(movedToB);
    }

    /**
     * Kafka hands a static member that rejoins a stable group its stored assignment, without a
     * rebalance: a plan made before the member subscribed to a new stream's topics then comes back,
     * and the member asks for the rebalance that assigns them.
     */
    @Test
    void aPlanMadeBeforeTheMemberSubscribedToATopicAsksForARebalance() {
        FakeUnit a = new FakeUnit("a", 0);
        RailgunAssignor ra = assignor(a, 1);
        Map<String, Subscription> subs = new TreeMap<>(Map.of("ma", subscription(ra, List.of(TOPIC), List.of())));
        Assignment stored = ra.assign(cluster(Map.of(TOPIC, 2, OTHER, 2)), new GroupSubscription(subs)).groupAssignment()
                .get("ma");
        ra.onAssignment(stored, new ConsumerGroupMetadata("g", 4, "ma", Optional.empty()));
        assertThat(a.rebalancesAsked).as("made for the subscription it joined with").isEmpty();

        RailgunAssignor restarted = assignor(a, 1); // the unit of the node's next run joins with both topics
        restarted.subscriptionUserData(Set.of(TOPIC, OTHER));
        restarted.onAssignment(stored, new ConsumerGroupMetadata("g", 4, "ma-2", Optional.empty()));
        assertThat(a.rebalancesAsked).singleElement().asString().contains("subscribed");

        // a plan from a Railgun before this check (format version 1) is taken as final
        ByteBuffer v1 = v1(AssignmentDescriptor.encode(new MemberAssignment(List.of(), List.of(), Map.of()), false, Set.of()));
        restarted.onAssignment(new Assignment(List.of(tp(0)), v1), new ConsumerGroupMetadata("g", 4, "ma-2", Optional.empty()));
        assertThat(a.rebalancesAsked).hasSize(1);
        assertThat(a.plans.getLast().actives()).containsExactly(task(0));
    }

    /** Version-2 data without its last fields (a flags byte and an empty subscription), as version 1. */
    private static ByteBuffer v1(ByteBuffer v2) {
        ByteBuffer out = ByteBuffer.allocate(v2.remaining() - 3).put(v2.duplicate().limit(v2.limit() - 3)).flip();
        out.put(0, (byte) 1);
        return out;
    }

    @Test
    void eagerMembersOwnNothingWhenTheyJoinSoNothingIsWithheldAndHeldCopiesKeepTasksInPlace() {
        FakeUnit a = new FakeUnit("a", 0);
        FakeUnit b = new FakeUnit("b", 0);
        a.held = List.of(new HeldCopy(task(0), CopyRole.ACTIVE, 3), new HeldCopy(task(1), CopyRole.ACTIVE, 3),
                new HeldCopy(task(2), CopyRole.ACTIVE, 3));
        b.held = List.of(new HeldCopy(task(3), CopyRole.ACTIVE, 3));
        RailgunAssignor ra = assignor(a, 1);
        RailgunAssignor rb = assignor(b, 1);
        Map<String, Subscription> subs = new TreeMap<>(Map.of(
                "ma", subscription(ra, List.of(TOPIC), List.of()), "mb", subscription(rb, List.of(TOPIC), List.of())));
        GroupAssignment r = ra.assign(cluster(Map.of(TOPIC, 4)), new GroupSubscription(subs));
        assertThat(r.groupAssignment().get("ma").partitions()).containsExactlyInAnyOrder(tp(0), tp(1));
        assertThat(r.groupAssignment().get("mb").partitions()).containsExactlyInAnyOrder(tp(2), tp(3));
    }

    @Test
    void tasksComeFromTheSubscribedTopicsInTheMetadataAndGoOnlyToSubscribers() {
        FakeUnit a = new FakeUnit("a", 0);
        FakeUnit b = new FakeUnit("b", 0);
        RailgunAssignor ra = assignor(a, 2);
        RailgunAssignor rb = assignor(b, 2);
        // b does not know the new stream's topic yet; a topic missing from the metadata has no tasks
        Map<String, Subscription> subs = new TreeMap<>(Map.of(
                "ma", subscription(ra, List.of(TOPIC, OTHER, "railgun.s.gone.1.x"), List.of()),
                "mb", subscription(rb, List.of(TOPIC), List.of())));
        GroupAssignment r = ra.assign(cluster(Map.of(TOPIC, 2, OTHER, 2)), new GroupSubscription(subs));
        assertThat(r.groupAssignment().get("ma").partitions())
                .contains(new TopicPartition(OTHER, 0), new TopicPartition(OTHER, 1));
        assertThat(r.groupAssignment().get("mb").partitions()).allMatch(tp -> tp.topic().equals(TOPIC));
        assertThat(AssignmentDescriptor.decode(r.groupAssignment().get("mb").userData(), List.of()).replicas())
                .allMatch(t -> t.topic().equals(TOPIC));
    }

    @Test
    void aSubscriptionOfAnUnknownVersionFailsTheAssignmentWithAClearError() {
        FakeUnit a = new FakeUnit("a", 0);
        RailgunAssignor ra = assignor(a, 1);
        ByteBuffer future = ByteBuffer.wrap(new byte[] {2, 0, 0});
        Map<String, Subscription> subs = new TreeMap<>(Map.of(
                "ma", subscription(ra, List.of(TOPIC), List.of()),
                "mz", new Subscription(List.of(TOPIC), future, List.of(), 1, Optional.empty())));
        assertThatThrownBy(() -> ra.assign(cluster(Map.of(TOPIC, 1)), new GroupSubscription(subs)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mz").hasMessageContaining("version 2");
    }

    @Test
    void theOwnedPartitionsCountAsActiveCopiesWhateverTheHolderSays() {
        FakeUnit a = new FakeUnit("a", 0);
        FakeUnit b = new FakeUnit("b", 0);
        b.held = List.of(new HeldCopy(task(0), CopyRole.REPLICA, 1));
        RailgunAssignor ra = assignor(a, 1);
        RailgunAssignor rb = assignor(b, 1);
        // a owns partition 0 but advertises nothing (a unit restarting its tasks): it keeps it
        Map<String, Subscription> subs = new TreeMap<>(Map.of(
                "ma", subscription(ra, List.of(TOPIC), List.of(tp(0))), "mb", subscription(rb, List.of(TOPIC), List.of())));
        GroupAssignment r = ra.assign(cluster(Map.of(TOPIC, 1)), new GroupSubscription(subs));
        assertThat(r.groupAssignment().get("ma").partitions()).containsExactly(tp(0));
    }
}
