package io.railgun.node.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.node.broker.EmbeddedBroker;
import io.railgun.node.messaging.KafkaSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A replica reads every record from its offset on, or stops: it never jumps over records Kafka deleted. */
@Tag("kafka")
class ReplicaReaderTest {

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void readsFromItsOffsetAndStopsWhenKafkaNoLongerHoldsIt() throws Exception {
        Path dir = Files.createTempDirectory("railgun-replica-reader");
        try (EmbeddedBroker broker = EmbeddedBroker.start(dir, 0, Map.of())) {
            KafkaSettings kafka = new KafkaSettings(broker.bootstrapServers(), Map.of(), "test");
            TopicPartition a = new TopicPartition("replica-a", 0);
            TopicPartition b = new TopicPartition("replica-b", 0);
            try (Admin admin = Admin.create(kafka.admin());
                    KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producer("test"))) {
                admin.createTopics(List.of(new NewTopic(a.topic(), 1, (short) 1), new NewTopic(b.topic(), 1, (short) 1)))
                        .all().get(30, TimeUnit.SECONDS);
                for (int i = 0; i < 10; i++) {
                    producer.send(new ProducerRecord<>(a.topic(), 0, null, new byte[] {(byte) i}));
                    producer.send(new ProducerRecord<>(b.topic(), 0, null, new byte[] {(byte) i}));
                }
                producer.flush();
                admin.deleteRecords(Map.of(b, RecordsToDelete.beforeOffset(5))).all().get(30, TimeUnit.SECONDS);
            }
            try (ReplicaReader reader = new ReplicaReader(kafka.replicaConsumer(0))) {
                reader.add(a, 3);
                reader.add(b, 2); // records 2 to 4 of b are gone
                Set<TopicPartition> outOfRange = new HashSet<>();
                List<Long> offsetsOfA = new ArrayList<>();
                long deadline = System.currentTimeMillis() + 30_000;
                while ((offsetsOfA.size() < 7 || outOfRange.isEmpty()) && System.currentTimeMillis() < deadline) {
                    for (ConsumerRecord<byte[], byte[]> r : reader.poll(outOfRange)) {
                        assertThat(r.topic()).isEqualTo(a.topic()); // never a record of b from offset 5 on
                        offsetsOfA.add(r.offset());
                    }
                    Thread.sleep(10);
                }
                assertThat(offsetsOfA).containsExactly(3L, 4L, 5L, 6L, 7L, 8L, 9L);
                assertThat(outOfRange).containsExactly(b);
                assertThat(reader.reads(b)).isFalse();
                assertThat(reader.reads(a)).isTrue();
            }
        } finally {
            try (Stream<Path> walk = Files.walk(dir)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
