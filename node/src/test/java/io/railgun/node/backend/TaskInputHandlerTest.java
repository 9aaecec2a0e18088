package io.railgun.node.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.reply.TaskAnswer;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.NodeConfig;
import io.railgun.node.catalog.StreamEntry;
import io.railgun.node.messaging.LocalReplies;
import io.railgun.node.messaging.TaskInput;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * A task's answers name its part (its partitioner's index), and a replaying task processes records
 * nobody waits for any more without answering them.
 */
class TaskInputHandlerTest {
    private static final long TIMEOUT_MS = 10_000;

    private record Delivered(long correlation, int part, TaskAnswer answer) {}

    @Test
    void answersNameTheirPartAndRecordsOlderThanAnyWaitingRequestAreProcessedUnanswered() throws Exception {
        Map<String, FieldType> fields = new LinkedHashMap<>();
        fields.put("id", FieldType.STRING);
        fields.put("card", FieldType.STRING);
        fields.put("merchant", FieldType.STRING);
        StreamDefinition d = new StreamDefinition("s", Schema.of(fields), "id", null, List.of("card", "merchant"), 1, 0,
                LateEventPolicy.DROP);
        StreamEntry entry = new StreamEntry(d, "g1", 1, List.of());
        Path dir = Files.createTempDirectory("railgun-input-handler");
        List<Delivered> delivered = new ArrayList<>();
        LocalReplies local = new LocalReplies("replies.here");
        local.attach((c, part, answer) -> delivered.add(new Delivered(c, part, answer)));
        UnitStats stats = new UnitStats();
        TaskInputHandler handler = new TaskInputHandler(local, null, TIMEOUT_MS, stats);
        TopicPartition tp = new TopicPartition(entry.inputTopic("merchant"), 0);
        try (TaskRunner task = new TaskRunner(tp, entry, "merchant", dir, NodeConfig.defaults(), null)) {
            long now = System.currentTimeMillis();
            long stale = now - TIMEOUT_MS - TaskInputHandler.CLOCK_SKEW_MS - 1;
            handler.handle(task, record(tp, d, 0, "e0", stale, 100), now);
            handler.handle(task, record(tp, d, 1, "e1", now - TIMEOUT_MS, 101), now);
            handler.handle(task, record(tp, d, 2, "e1", now, 102), now); // a retry: answered as a duplicate

            assertThat(task.resumeOffset()).isEqualTo(3); // all three processed
            assertThat(stats.records()).isEqualTo(3);
            assertThat(stats.repliesSkipped()).isEqualTo(1);
            assertThat(delivered).extracting(Delivered::correlation).containsExactly(101L, 102L);
            assertThat(delivered).extracting(Delivered::part).containsOnly(1); // merchant is the second partitioner
            assertThat(((TaskAnswer.Event) delivered.get(1).answer()).status())
                    .isEqualTo(io.railgun.engine.task.ReplyStatus.DUPLICATE);
        } finally {
            try (Stream<Path> walk = Files.walk(dir)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private static ConsumerRecord<byte[], byte[]> record(TopicPartition tp, StreamDefinition d, long offset, String id,
            long timestamp, long correlation) {
        EventRowWriter w = new EventRowWriter().begin(d.schema());
        w.setString(0, id).setString(1, "c").setString(2, "m");
        w.finish();
        byte[] row = Arrays.copyOf(w.buffer(), w.length());
        return new ConsumerRecord<>(tp.topic(), tp.partition(), offset, timestamp, TimestampType.CREATE_TIME, 0, row.length,
                null, TaskInput.event(row, row.length),
                TaskInput.replyHeaders("replies.here".getBytes(StandardCharsets.UTF_8), correlation), Optional.empty());
    }
}
