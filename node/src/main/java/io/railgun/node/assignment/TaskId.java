package io.railgun.node.assignment;

/**
 * A task: one partition of one input topic ({@code railgun.s.<stream>.<generation>.<partitioner>}).
 * Ordered by topic, then partition, so every member of the group computes the same plan.
 */
public record TaskId(String topic, int partition) implements Comparable<TaskId> {
    @Override
    public int compareTo(TaskId o) {
        int c = topic.compareTo(o.topic);
        return c != 0 ? c : Integer.compare(partition, o.partition);
    }

    @Override
    public String toString() {
        return topic + "-" + partition;
    }
}
