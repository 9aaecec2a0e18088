package io.railgun.node.ops;

import io.prometheus.metrics.core.metrics.Counter;
import io.railgun.node.cluster.ClusterEvents;

/**
 * The counters of task recovery in {@code /metrics}: {@code railgun_recoveries_total{source}}
 * (recoveries of tasks assigned here without their data, while a peer holds a copy, that ended:
 * {@code source="peer"} when the peer's checkpoint was copied, {@code "replay"} when none was, so the
 * task rebuilds from its input), {@code railgun_recovery_bytes_total} (bytes of task files received
 * from peers). Rebalances, promotions and demotions are
 * {@code railgun_rebalances_total{unit}}, {@code railgun_promotions_total{unit}} and
 * {@code railgun_demotions_total{unit}}, read from the units' statistics (registered by the node).
 *
 * <p>Thread-safe: the {@link ClusterEvents} methods may be called from any thread.
 */
public final class DistributionMetrics implements ClusterEvents {
    private final Counter recoveries;
    private final Counter bytes;

    public DistributionMetrics(NodeMetrics metrics) {
        recoveries = Counter.builder()
                .name("railgun_recoveries_total")
                .help("Recoveries from a peer that ended, by source (peer: the peer's checkpoint was copied; replay:"
                        + " none was, the task rebuilds from its input)")
                .labelNames("source")
                .register(metrics.registry());
        bytes = Counter.builder()
                .name("railgun_recovery_bytes_total")
                .help("Bytes of task files (reservoir, state, checkpoint) received from peers")
                .register(metrics.registry());
        // present from the start (at 0), so rates and alerts need no special case
        recoveries.labelValues("peer");
        recoveries.labelValues("replay");
    }

    @Override
    public void recovered(boolean fromPeer) {
        recoveries.labelValues(fromPeer ? "peer" : "replay").inc();
    }

    @Override
    public void bytesCopied(long count) {
        if (count > 0) {
            bytes.inc(count);
        }
    }
}
