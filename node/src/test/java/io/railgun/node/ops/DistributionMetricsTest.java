package io.railgun.node.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.node.cluster.ClusterEvents;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The counters others feed through {@link ClusterEvents}, as {@code /metrics} shows them. */
class DistributionMetricsTest {
    static String scrape(NodeMetrics metrics) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        metrics.writeText(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void countsRecoveriesBySourceAndBytesCopied() throws IOException {
        NodeMetrics metrics = new NodeMetrics();
        ClusterEvents events = new DistributionMetrics(metrics);
        String before = scrape(metrics);
        assertThat(before).contains("railgun_recoveries_total{source=\"peer\"} 0.0",
                "railgun_recoveries_total{source=\"replay\"} 0.0", "railgun_recovery_bytes_total 0.0");
        events.recovered(true);
        events.recovered(false);
        events.recovered(true);
        events.bytesCopied(4096);
        events.bytesCopied(-5); // ignored: a counter never goes down
        events.bytesCopied(100);
        assertThat(scrape(metrics)).contains("railgun_recoveries_total{source=\"peer\"} 2.0",
                "railgun_recoveries_total{source=\"replay\"} 1.0", "railgun_recovery_bytes_total 4196.0");
        ClusterEvents.NONE.bytesCopied(1); // the no-op for code without counters
    }
}
