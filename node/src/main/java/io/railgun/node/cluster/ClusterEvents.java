package io.railgun.node.cluster;

/**
 * What happens to this node's task copies that {@code /metrics} counts
 * ({@link io.railgun.node.ops.DistributionMetrics}): recoveries of tasks that arrive without their
 * data, and the bytes copied from peers. The node feeds them from every recovery's outcome
 * ({@link io.railgun.node.recovery.CountedRecovery}); rebalances, promotions and demotions are
 * counted in the units' statistics ({@code UnitStats}) and read from there.
 *
 * <p>Thread-safe and cheap: any thread may call any method at any rate.
 */
public interface ClusterEvents {
    /** Counts nothing (tests, and code that has no counters to feed). */
    ClusterEvents NONE = new ClusterEvents() {
        @Override
        public void recovered(boolean fromPeer) {}

        @Override
        public void bytesCopied(long bytes) {}
    };

    /**
     * A task assigned to this node without its data is ready to run: {@code fromPeer} when a peer's
     * checkpoint was copied, false when it rebuilds by replaying its input.
     */
    void recovered(boolean fromPeer);

    /** {@code bytes} more of task files received from peers. */
    void bytesCopied(long bytes);
}
