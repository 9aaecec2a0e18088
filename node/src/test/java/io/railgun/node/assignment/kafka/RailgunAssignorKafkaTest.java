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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RailgunAssignor} in real consumers of a real broker, with the classic group protocol:
 * Kafka hands the holder object from the consumer's configuration to the assignor, accepts its
 * cooperative assignments (ConsumerCoordinator checks them), and each member learns its replicas.
 */
@Tag("kafka")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RailgunAssignorKafkaTest {
    private static final String TOPIC = "railgun.s.pay.1.card";

    @TempDir
    Path dataDir;

    record Planned(int generation, MemberAssignment plan) {}

    /** A processor unit's view: it runs what it is given; what it loses stays as a stale copy. */
    static final class Unit implements AssignmentHolder {
        final String nodeId;
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
        }
    }

    private static KafkaConsumer<byte[], byte[]> consumer(EmbeddedBroker broker, Unit unit) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "railgun-assignor-test");
        p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, RailgunAssignor.class.getName());
        p.put(AssignmentHolder.CONFIG_KEY, unit);
        p.put(RailgunAssignor.REPLICATION_CONFIG, "2");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return new KafkaConsumer<>(p);
    }

    private static void pollUntil(List<KafkaConsumer<byte[], byte[]>> consumers, BooleanSupplier done) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!done.getAsBoolean()) {
            assertThat(System.nanoTime()).as("rebalance within 60 s").isLessThan(deadline);
            for (KafkaConsumer<byte[], byte[]> c : consumers) {
                c.poll(Duration.ofMillis(50));
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
                pollUntil(List.of(ca), () -> ca.assignment().size() == 6);
                assertThat(a.last.actives()).hasSize(6);
                assertThat(a.last.replicas()).as("one node: no replicas").isEmpty();

                cb.subscribe(List.of(TOPIC));
                List<KafkaConsumer<byte[], byte[]>> both = List.of(ca, cb);
                pollUntil(both, () -> ca.assignment().size() == 3 && cb.assignment().size() == 3
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

    private static List<TaskId> tasks(KafkaConsumer<byte[], byte[]> c) {
        List<TaskId> out = new ArrayList<>();
        c.assignment().forEach(tp -> out.add(new TaskId(tp.topic(), tp.partition())));
        return out;
    }
}
