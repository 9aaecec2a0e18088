package io.railgun.node.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.node.assignment.TaskId;
import io.railgun.node.ops.DistributionMetrics;
import io.railgun.node.ops.NodeMetrics;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Recoveries counted from their outcomes: copied from a peer, replayed (not copied, or failed), bytes. */
class CountedRecoveryTest {
    @Test
    void countsEachOutcomeOnceWhenItCompletes() throws Exception {
        NodeMetrics metrics = new NodeMetrics();
        AtomicReference<CompletableFuture<TaskRecovery.Outcome>> next = new AtomicReference<>();
        TaskRecovery counted = new CountedRecovery((task, dir, sources) -> next.get(), new DistributionMetrics(metrics));
        TaskId task = new TaskId("railgun.s.pay.g.card", 0);

        CompletableFuture<TaskRecovery.Outcome> pending = new CompletableFuture<>();
        next.set(pending);
        CompletableFuture<TaskRecovery.Outcome> seen = counted.recover(task, Path.of("t"), List.of());
        assertThat(scrape(metrics)).contains("railgun_recoveries_total{source=\"peer\"} 0.0");
        pending.complete(new TaskRecovery.Outcome(true, "n2", 5000, 42));
        assertThat(seen.get().bytesCopied()).isEqualTo(5000);

        next.set(CompletableFuture.completedFuture(TaskRecovery.Outcome.NOT_COPIED));
        counted.recover(task, Path.of("t"), List.of()).get();
        next.set(CompletableFuture.failedFuture(new IllegalStateException("peer gone")));
        counted.recover(task, Path.of("t"), List.of()).exceptionally(e -> null).get();

        assertThat(scrape(metrics)).contains("railgun_recoveries_total{source=\"peer\"} 1.0",
                "railgun_recoveries_total{source=\"replay\"} 2.0", "railgun_recovery_bytes_total 5000.0");
    }

    static String scrape(NodeMetrics metrics) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        metrics.writeText(out);
        return out.toString(StandardCharsets.UTF_8);
    }
}
