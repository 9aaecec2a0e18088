package io.railgun.node.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.NodeConfig;
import io.railgun.node.assignment.CopyRole;
import io.railgun.node.assignment.HeldCopy;
import io.railgun.node.assignment.MemberAssignment;
import io.railgun.node.assignment.MemberAssignment.PeerCopy;
import io.railgun.node.assignment.TaskId;
import io.railgun.node.catalog.Catalog;
import io.railgun.node.catalog.CatalogCodec;
import io.railgun.node.catalog.StreamEntry;
import io.railgun.node.messaging.TaskInput;
import io.railgun.node.recovery.TaskRecovery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A unit's tasks through the plan and Kafka's callbacks, with mock consumers: a task the unit
 * lacks is not read until its copy from a peer ends; a replica is read by the replica consumer from
 * its offset; promotion and demotion move the open task between consumers at its next offset,
 * without reopening it; a task that leaves is closed and advertised as a stale copy.
 */
class UnitTasksTest {
    private final Path dir;
    private final MockConsumer<byte[], byte[]> active = new MockConsumer<>("earliest");
    private final MockConsumer<byte[], byte[]> replicaConsumer = new MockConsumer<>("none");
    private final ReplicaReader replicas = new ReplicaReader(replicaConsumer);
    private final CompletableFuture<TaskRecovery.Outcome> copy = new CompletableFuture<>();
    private final List<TaskId> copiesAsked = new ArrayList<>();
    private final UnitStats stats = new UnitStats();
    private final StaleCopies stale;
    private final StreamEntry entry;
    private final UnitTasks tasks;
    private final TopicPartition t0;
    private final TopicPartition t1;

    UnitTasksTest() throws Exception {
        dir = Files.createTempDirectory("railgun-unit-tasks");
        Map<String, FieldType> fields = new LinkedHashMap<>();
        fields.put("id", FieldType.STRING);
        fields.put("card", FieldType.STRING);
        StreamDefinition d = new StreamDefinition("s", Schema.of(fields), "id", null, List.of("card"), 2, 0,
                LateEventPolicy.DROP);
        entry = new StreamEntry(d, "g1", 1, List.of());
        Catalog catalog = new Catalog();
        catalog.apply(CatalogCodec.key("s"), CatalogCodec.encode(entry, -1), 0);
        t0 = new TopicPartition(entry.inputTopic("card"), 0);
        t1 = new TopicPartition(entry.inputTopic("card"), 1);
        for (MockConsumer<byte[], byte[]> c : List.of(active, replicaConsumer)) {
            c.updateBeginningOffsets(Map.of(t0, 0L, t1, 0L));
            c.updateEndOffsets(Map.of(t0, 0L, t1, 0L));
        }
        stale = new StaleCopies(dir);
        TaskRecovery recovery = (task, taskDir, sources) -> {
            copiesAsked.add(task);
            return copy;
        };
        tasks = new UnitTasks(0, catalog, active, replicas, new TaskOpener(NodeConfig.defaults(), catalog, dir, null), stale,
                new TaskRecoveries(recovery, 0), stats);
    }

    @AfterEach
    void cleanUp() throws Exception {
        tasks.closeAll(false);
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static TaskId id(TopicPartition tp) {
        return new TaskId(tp.topic(), tp.partition());
    }

    private void plan(List<TopicPartition> actives, List<TopicPartition> replicaTasks, Map<TaskId, List<PeerCopy>> sources,
            int generation) {
        tasks.planned(new MemberAssignment(actives.stream().map(UnitTasksTest::id).toList(),
                replicaTasks.stream().map(UnitTasksTest::id).toList(), sources), generation);
        active.assign(actives);
    }

    private void feed(TaskRunner t, long from, long to) {
        for (long o = from; o < to; o++) {
            EventRowWriter w = new EventRowWriter().begin(entry.definition().schema());
            w.setString(0, "e" + o).setString(1, "c");
            w.finish();
            byte[] row = Arrays.copyOf(w.buffer(), w.length());
            t.handle(new ConsumerRecord<>(t.partition.topic(), t.partition.partition(), o, null,
                    TaskInput.event(row, row.length)));
        }
    }

    @Test
    void copiesPromotionsAndDemotionsMoveTasksWithoutReopeningThem() {
        // t0 active, lacking here: copied from a peer first; t1 a replica with no copy anywhere
        PeerCopy peer = new PeerCopy("node-b", "http://b", CopyRole.ACTIVE, 40);
        plan(List.of(t0), List.of(t1), Map.of(id(t0), List.of(peer)), 1);
        tasks.assigned(List.of(t0));
        assertThat(copiesAsked).containsExactly(id(t0));
        assertThat(active.paused()).containsExactly(t0); // not read while it is copied
        tasks.reconcileIfNeeded();
        assertThat(replicaConsumer.assignment()).containsExactly(t1);
        assertThat(replicaConsumer.position(t1)).isZero();
        tasks.openRecovered();
        assertThat(tasks.runner(t0, true)).isNull();
        assertThat(stats.opens()).isEqualTo(1);

        copy.complete(TaskRecovery.Outcome.NOT_COPIED);
        tasks.openRecovered();
        assertThat(tasks.runner(t0, true)).isNotNull();
        assertThat(active.paused()).isEmpty();
        assertThat(active.position(t0)).isZero();
        assertThat(stats.opens()).isEqualTo(2);

        // the replica reads three records, then becomes active here: promoted at its next offset
        TaskRunner replica = tasks.runner(t1, false);
        feed(replica, 0, 3);
        plan(List.of(t0, t1), List.of(), Map.of(), 2);
        tasks.assigned(List.of(t1));
        tasks.reconcileIfNeeded();
        assertThat(tasks.runner(t1, true)).isSameAs(replica);
        assertThat(active.position(t1)).isEqualTo(3);
        assertThat(replicaConsumer.assignment()).isEmpty();
        assertThat(stats.promotions()).isEqualTo(1);
        assertThat(stats.opens()).isEqualTo(2);

        // Kafka revokes t1 before the plan that keeps it here as replica: demoted at its next offset
        feed(replica, 3, 5);
        tasks.revoked(List.of(t1), true);
        plan(List.of(t0), List.of(t1), Map.of(), 3);
        tasks.reconcileIfNeeded();
        assertThat(tasks.runner(t1, false)).isSameAs(replica);
        assertThat(replicaConsumer.position(t1)).isEqualTo(5);
        assertThat(stats.demotions()).isEqualTo(1);
        assertThat(tasks.held()).extracting(HeldCopy::task, HeldCopy::role).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple(id(t0), CopyRole.ACTIVE),
                org.assertj.core.groups.Tuple.tuple(id(t1), CopyRole.REPLICA));

        // both leave: closed with a final checkpoint, their files advertised as stale copies
        tasks.revoked(List.of(t0), true);
        plan(List.of(), List.of(), Map.of(), 4);
        tasks.reconcileIfNeeded();
        assertThat(tasks.held()).isEmpty();
        assertThat(replicaConsumer.assignment()).isEmpty();
        assertThat(stale.advertised(0, 1, topic -> true)).containsExactlyInAnyOrder(
                new HeldCopy(id(t0), CopyRole.STALE, 0), new HeldCopy(id(t1), CopyRole.STALE, 5));
        assertThat(stats.opens()).isEqualTo(2);
    }
}
