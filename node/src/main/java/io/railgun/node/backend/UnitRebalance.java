package io.railgun.node.backend;

import java.util.Collection;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;

/**
 * Kafka's rebalance callbacks for a processor unit's active consumer, handed to its {@link UnitTasks}: on its
 * thread, from inside its poll. With the cooperative protocol Kafka calls {@code revoked} before the
 * assignor's {@code onAssignment} (where the unit learns the plan) and {@code assigned} after it.
 */
final class UnitRebalance implements ConsumerRebalanceListener {
    private final UnitTasks unit;

    UnitRebalance(UnitTasks unit) {
        this.unit = unit;
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        unit.assigned(partitions);
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        unit.revoked(partitions, true);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
        unit.revoked(partitions, false);
    }
}
