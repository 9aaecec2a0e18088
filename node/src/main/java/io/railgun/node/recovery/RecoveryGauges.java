package io.railgun.node.recovery;

import io.railgun.node.ops.NodeMetrics;
import java.util.List;
import java.util.Map;

/**
 * The Prometheus metrics of peer recovery, read from {@link RecoveryMetrics} at each scrape:
 * recoveries started, completed and failed, bytes copied from peers and kept from stale copies
 * (counters), recoveries in progress and their bytes still to copy (gauges).
 */
public final class RecoveryGauges {
    private final RecoveryMetrics metrics;

    public RecoveryGauges(RecoveryMetrics metrics) {
        this.metrics = metrics;
    }

    /** Registers the metrics (once, at start). */
    public void register(NodeMetrics m) {
        counter(m, "railgun_recoveries_started", "Task recoveries from peers started", metrics::started);
        counter(m, "railgun_recoveries_completed", "Task recoveries from peers completed (a peer's checkpoint copied)",
                metrics::completed);
        counter(m, "railgun_recoveries_failed", "Task recoveries that found no usable peer (the task replays its input)",
                metrics::failed);
        counter(m, "railgun_recovery_copied_bytes", "Bytes of task files fetched from peers", metrics::bytesCopied);
        counter(m, "railgun_recovery_reused_bytes", "Bytes of task files a stale local copy already held (not fetched)",
                metrics::bytesReused);
        m.gauge("railgun_recoveries_in_progress", "Task recoveries from peers under way",
                () -> metrics.inProgress().size());
        m.gauge("railgun_recovery_remaining_bytes", "Bytes the recoveries under way have still to copy",
                () -> metrics.inProgress().stream().mapToLong(p -> p.totalBytes - p.doneBytes()).sum());
    }

    private static void counter(NodeMetrics m, String name, String help, java.util.function.LongSupplier value) {
        m.counter(name, help, List.of(), () -> Map.of(List.of(), value.getAsLong()));
    }
}
