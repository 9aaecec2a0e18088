package io.railgun.node.backend;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;

/**
 * The consumer of a processor unit's replica tasks: no group (the task group's members are the
 * units' active consumers; replicas reach a unit through the assignment's plan), partitions
 * assigned by hand, each read from the offset its task resumes at. It never commits: only active
 * tasks commit to the group. It never resets an offset either ({@code auto.offset.reset=none}): a
 * replica reads every record after its checkpoint or stops. Each poll returns at most the consumer's {@code max.poll.records}, so
 * a round of the unit spends a bounded time on replicas after its actives.
 *
 * <p>Not thread-safe: one per unit, called on its thread ({@link #wake} from any thread).
 */
final class ReplicaReader implements AutoCloseable {
    private final Consumer<byte[], byte[]> consumer;
    private final Set<TopicPartition> assigned = new HashSet<>();

    ReplicaReader(Map<String, Object> consumerConfig) {
        this(new KafkaConsumer<>(consumerConfig));
    }

    /** Reads with {@code consumer} (a group-less one; tests give a mock). */
    ReplicaReader(Consumer<byte[], byte[]> consumer) {
        this.consumer = consumer;
    }

    /** Starts reading {@code tp} at {@code offset}. */
    void add(TopicPartition tp, long offset) {
        if (assigned.add(tp)) {
            consumer.assign(List.copyOf(assigned));
        }
        consumer.seek(tp, offset);
    }

    /** Stops reading {@code tp}; records of it fetched and not yet returned are dropped. */
    void remove(TopicPartition tp) {
        if (assigned.remove(tp)) {
            consumer.assign(List.copyOf(assigned));
        }
    }

    boolean reads(TopicPartition tp) {
        return assigned.contains(tp);
    }

    boolean isEmpty() {
        return assigned.isEmpty();
    }

    /**
     * The records fetched for the replicas (without waiting), at most {@code max.poll.records}. A
     * replica whose next offset Kafka no longer holds (retention deleted it) is not read on from a
     * later one, which would skip records and make its state wrong: it stops being read and is
     * added to {@code outOfRange}.
     */
    ConsumerRecords<byte[], byte[]> poll(Set<TopicPartition> outOfRange) {
        if (assigned.isEmpty()) {
            return ConsumerRecords.empty();
        }
        try {
            return consumer.poll(Duration.ZERO);
        } catch (OffsetOutOfRangeException e) {
            for (TopicPartition tp : e.partitions()) {
                remove(tp);
                outOfRange.add(tp);
            }
            return ConsumerRecords.empty();
        }
    }

    /** The replica's lag as the consumer knows it (empty when unknown, or not read here). */
    OptionalLong lag(TopicPartition tp) {
        return assigned.contains(tp) ? consumer.currentLag(tp) : OptionalLong.empty();
    }

    /** The next offset the replica reads (the consumer's position); {@code tp} must be read here. */
    long position(TopicPartition tp) {
        return consumer.position(tp);
    }

    long endOffset(TopicPartition tp) {
        return consumer.endOffsets(List.of(tp)).getOrDefault(tp, 0L);
    }

    void wake() {
        consumer.wakeup();
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
