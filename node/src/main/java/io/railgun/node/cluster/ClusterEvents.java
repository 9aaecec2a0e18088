package io.railgun.node.cluster;

/**
 * What happens to this node's task copies that {@code /metrics} counts
 * ({@link io.railgun.node.ops.DistributionMetrics}): promotions of replicas, recoveries from peers
 * and the bytes they copy. The code that does it calls these (a processor unit promoting a replica,
 * a recovery finishing); rebalances are counted from the units' statistics instead.
 *
 * <p>Thread-safe and cheap: any thread may call any method at any rate.
 */
public interface ClusterEvents {
    /** Counts nothing (tests, and code that has no counters to feed). */
    ClusterEvents NONE = new ClusterEvents() {
        @Override
        public void promoted() {}

        @Override
        public void recovered(boolean fromPeer) {}

        @Override
        public void bytesCopied(long bytes) {}
    };

    /** A replica of a task became its active copy on this node. */
    void promoted();

    /**
     * A task assigned to this node without its data is ready to run: {@code fromPeer} when a peer's
     * checkpoint was copied, false when it rebuilds by replaying its input.
     */
    void recovered(boolean fromPeer);

    /** {@code bytes} more of task files received from peers (counted as they arrive, so progress shows). */
    void bytesCopied(long bytes);
}
