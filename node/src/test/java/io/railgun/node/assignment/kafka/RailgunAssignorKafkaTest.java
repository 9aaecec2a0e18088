package io.railgun.node.assignment.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.node.assignment.AssignmentHolder;
import io.railgun.node.assignment.CopyRole;
import io.railgun.node.assignment.HeldCopy;
import io.railgun.node.assignment.MemberAssignment;
import io.railgun.node.assignment.MemberInfo;
import io.railgun.node.assignment.TaskId;
import io.railgun.node.broker.EmbeddedBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RailgunAssignor} in real consumers of a real broker, with the classic group protocol:
 * Kafka hands the holder object from the consumer's configuration to the assignor, accepts its
 * cooperative assignments (ConsumerCoordinator checks them), and each member learns its replicas;
 * a plan that is not final makes its members ask for the next rebalance, as processor units do,
 * also when Kafka hands it back to static members after a crash.
 */
@Tag("kafka")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RailgunAssignorKafkaTest {
    private static final String TOPIC = "railgun.s.pay.1.card";

    @TempDir
    Path dataDir;

    record Planned(int generation, MemberAssignment plan) {}

    /**
     * A processor unit's view: it runs what it is given; what it loses stays as a stale copy; when a
     * plan is not final it asks its consumer for a rebalance after the poll.
     */
    static final class Unit implements AssignmentHolder {
        final String nodeId;
        KafkaConsumer<byte[], byte[]> consumer;
        String rebalanceDue;
        volatile List<HeldCopy> held = List.of();
        volatile MemberAssignment last = new MemberAssignment(List.of(), List.of(), Map.of());
        final List<Planned> history = new CopyOnWriteArrayList<>();

        Unit(String nodeId) {
            this.nodeId = nodeId;
        }

        @Override
        public MemberInfo describe(String memberId) {
            return new MemberInfo(memberId, nodeId, "http://" + nodeId, 0, Integer.MAX_VALUE, held);
        }

        @Override
        public void planned(MemberAssignment plan, int generation) {
            Map<TaskId, HeldCopy> next = new HashMap<>();
            held.forEach(h -> next.put(h.task(), new HeldCopy(h.task(), CopyRole.STALE, h.checkpointOffset())));
            plan.actives().forEach(t -> next.put(t, new HeldCopy(t, CopyRole.ACTIVE, generation)));
            plan.replicas().forEach(t -> next.put(t, new HeldCopy(t, CopyRole.REPLICA, generation)));
            held = List.copyOf(next.values());
            last = plan;
            history.add(new Planned(generation, plan));
            rebalanceDue = null; // as ProcessorUnit: only the last plan of a poll asks
        }

        @Override
        public void rebalanceDue(String reason) {
            rebalanceDue = reason;
        }

        void poll() {
            consumer.poll(Duration.ofMillis(50));
            if (rebalanceDue != null) {
                consumer.enforceRebalance(rebalanceDue);
                rebalanceDue = null;
            }
        }
    }

    private static KafkaConsumer<byte[], byte[]> consumer(EmbeddedBroker broker, Unit unit) {
        return consumer(broker, unit, null);
    }

    /** The unit's consumer; a static member when {@code instanceId} is not null (as processor units are). */
    private static KafkaConsumer<byte[], byte[]> consumer(EmbeddedBroker broker, Unit unit, String instanceId) {
        Map<String, Object> p = new HashMap<>();
        if (instanceId != null) {
            p.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instanceId);
        }
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "railgun-assignor-test");
        p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, RailgunAssignor.class.getName());
        p.put(AssignmentHolder.CONFIG_KEY, unit);
        p.put(RailgunAssignor.REPLICATION_CONFIG, "2");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p);
        unit.consumer = c;
        return c;
    }

    private static void pollUntil(List<Unit> units, BooleanSupplier done) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!done.getAsBoolean()) {
            assertThat(System.nanoTime()).as("rebalance within 30 s").isLessThan(deadline);
            for (Unit u : units) {
                u.poll();
            }
        }
    }

    @Test
    void aSecondNodeTakesHalfTheTasksCooperativelyAndEachBacksUpTheOther() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(dataDir, 0, Map.of())) {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 6, (short) 1))).all().get();
            }
            Unit a = new Unit("a");
            Unit b = new Unit("b");
            try (KafkaConsumer<byte[], byte[]> ca = consumer(broker, a); KafkaConsumer<byte[], byte[]> cb = consumer(broker, b)) {
                ca.subscribe(List.of(TOPIC));
                pollUntil(List.of(a), () -> ca.assignment().size() == 6);
                assertThat(a.last.actives()).hasSize(6);
                assertThat(a.last.replicas()).as("one node: no replicas").isEmpty();

                cb.subscribe(List.of(TOPIC));
                pollUntil(List.of(a, b), () -> ca.assignment().size() == 3 && cb.assignment().size() == 3
                        && a.last.replicas().size() == 3 && b.last.replicas().size() == 3);
                assertThat(a.last.actives()).containsExactlyInAnyOrderElementsOf(b.last.replicas());
                assertThat(b.last.actives()).containsExactlyInAnyOrderElementsOf(a.last.replicas());
                assertThat(tasks(ca)).containsExactlyInAnyOrderElementsOf(a.last.actives());
                // b's tasks came from a: a still holds them (as replicas now), and b was told so
                assertThat(b.last.sources().values()).allSatisfy(peers ->
                        assertThat(peers).extracting(MemberAssignment.PeerCopy::nodeId).containsExactly("a"));
                // cooperative: a gave the tasks up in one generation, b got them in a later one
                int aGaveUp = a.history.stream().filter(p -> p.plan().actives().size() == 3)
                        .mapToInt(Planned::generation).min().orElseThrow();
                int bGot = b.history.stream().filter(p -> !p.plan().actives().isEmpty())
                        .mapToInt(Planned::generation).min().orElseThrow();
                assertThat(bGot).isGreaterThan(aGaveUp);
            }
        }
    }

    /**
     * A node killed between the two rounds of a cooperative move, its embedded broker with it (which
     * forgets the round in progress): Kafka keeps the first round's assignments, and hands them back
     * without a rebalance to the static members of the node's next run. The plan says a follow-up is
     * due, so they ask for it, and the tasks left out are assigned (before, they stayed with no member).
     */
    @Test
    void staticMembersBackFromACrashBetweenTheTwoRoundsOfAMoveAskForTheFollowUp() throws Exception {
        int port;
        try (EmbeddedBroker broker = EmbeddedBroker.start(dataDir, 0, Map.of())) {
            port = broker.port();
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 6, (short) 1))).all().get();
            }
            Unit a = new Unit("a");
            Unit b = new Unit("b");
            KafkaConsumer<byte[], byte[]> ca = consumer(broker, a, "a-unit-0");
            KafkaConsumer<byte[], byte[]> cb = consumer(broker, b, "b-unit-0");
            // a revokes only once b has its plan of the first round (each unit polls on its own thread):
            // else a rejoins at once and b never sees that round
            CountDownLatch bPlanned = new CountDownLatch(1);
            ca.subscribe(List.of(TOPIC), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    try {
                        bPlanned.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {}
            });
            pollUntil(List.of(a), () -> ca.assignment().size() == 6);
            cb.subscribe(List.of(TOPIC));
            AtomicBoolean crashed = new AtomicBoolean();
            Thread unitA = Thread.ofPlatform().name("unit-a").start(() -> {
                while (!crashed.get()) {
                    a.poll();
                }
            });
            // the first round: b's tasks are left out until a has revoked them
            pollUntil(List.of(b), () -> !b.history.isEmpty());
            // the crash, before the follow-up: no member leaves the group
            crashed.set(true);
            bPlanned.countDown();
            unitA.join();
            CloseOptions crash = CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP)
                    .withTimeout(Duration.ZERO); // a's rejoin is pending: closing would wait for it
            ca.close(crash);
            cb.close(crash);
            assertThat(b.last.actives()).isEmpty();
            assertThat(b.last.replicas()).as("a's three, and the three it is to take").hasSize(6);
        }
        try (EmbeddedBroker broker = EmbeddedBroker.start(dataDir, port, Map.of())) {
            Unit a = new Unit("a");
            Unit b = new Unit("b");
            try (KafkaConsumer<byte[], byte[]> ca = consumer(broker, a, "a-unit-0");
                 KafkaConsumer<byte[], byte[]> cb = consumer(broker, b, "b-unit-0")) {
                ca.subscribe(List.of(TOPIC));
                cb.subscribe(List.of(TOPIC));
                pollUntil(List.of(a, b), () -> ca.assignment().size() == 3 && cb.assignment().size() == 3);
                assertThat(b.history.getFirst().plan().actives()).as("Kafka handed the stored first round back").isEmpty();
            }
        }
    }

    private static List<TaskId> tasks(KafkaConsumer<byte[], byte[]> c) {
        List<TaskId> out = new ArrayList<>();
        c.assignment().forEach(tp -> out.add(new TaskId(tp.topic(), tp.partition())));
        return out;
    }
}
