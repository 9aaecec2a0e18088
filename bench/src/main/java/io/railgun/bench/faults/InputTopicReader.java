package io.railgun.bench.faults;

import io.railgun.engine.event.EventRow;
import io.railgun.node.messaging.TaskInput;
import io.railgun.node.messaging.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads a stream's input topic back from Kafka with a plain consumer (no group, every partition
 * from its first offset to its end offset, {@code read_committed}): the ground-truth order of each
 * partition, in which the checker recomputes every value. Events are decoded from the record's
 * binary row (the node's {@link TaskInput} framing, the engine's {@link EventRow} layout) with the
 * field positions of the stream's definition; nothing is taken from the replies.
 */
final class InputTopicReader {
    private final String bootstrap;

    InputTopicReader(String bootstrap) {
        this.bootstrap = bootstrap;
    }

    /** The input topic of the stream's partitioner ({@code railgun.s.<stream>.<generation>.<partitioner>}). */
    String findTopic(String stream, String partitioner) throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(p)) {
            String prefix = Topics.STREAM_PREFIX + stream + ".";
            List<String> found = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                    .filter(t -> t.startsWith(prefix) && t.endsWith("." + partitioner)).toList();
            if (found.size() != 1) {
                throw new IllegalStateException("expected one input topic " + prefix + "*." + partitioner + ", found " + found);
            }
            return found.getFirst();
        }
    }

    /**
     * Every record of the topic, per partition in offset order.
     *
     * @param fieldIndex the positions of the fields {@code id}, {@code ts}, {@code card}, {@code amount}
     *                   in the stream's rows
     */
    Map<Integer, List<InputRecord>> readAll(String topic, Map<String, Integer> fieldIndex) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        int id = fieldIndex.get("id");
        int ts = fieldIndex.get("ts");
        int card = fieldIndex.get("card");
        int amount = fieldIndex.get("amount");
        EventRow row = new EventRow();
        Map<Integer, List<InputRecord>> out = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
            for (TopicPartition tp : partitions) {
                out.put(tp.partition(), new ArrayList<>());
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!caughtUp(consumer, end)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end offsets " + end + " in 120 s");
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    byte[] v = r.value();
                    List<InputRecord> list = out.get(r.partition());
                    if (v == null || v.length == 0) {
                        list.add(InputRecord.other(r.partition(), r.offset()));
                    } else if (v[0] == TaskInput.EVENT) {
                        row.wrap(v, 1);
                        long quarters = Math.round(row.getDouble(amount) * 4);
                        if (quarters / 4.0 != row.getDouble(amount)) {
                            throw new IllegalStateException("amount " + row.getDouble(amount) + " at " + r.partition() + "/"
                                    + r.offset() + " is not a multiple of 0.25: the row was not decoded as expected");
                        }
                        list.add(InputRecord.event(r.partition(), r.offset(), row.getString(id), row.getString(card),
                                row.getLong(ts), quarters));
                    } else if (v[0] == TaskInput.STATEMENT) {
                        list.add(InputRecord.statement(r.partition(), r.offset(), TaskInput.decodeStatement(v).names()));
                    } else {
                        list.add(InputRecord.other(r.partition(), r.offset()));
                    }
                }
            }
        }
        return out;
    }

    private static boolean caughtUp(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }
}
