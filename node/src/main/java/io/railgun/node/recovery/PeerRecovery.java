package io.railgun.node.recovery;

import io.railgun.node.assignment.MemberAssignment.PeerCopy;
import io.railgun.node.assignment.TaskId;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * {@link TaskRecovery} from peers: copies a peer's snapshot of the task (reservoir segments, a
 * RocksDB checkpoint with the checkpoint record) over the internal endpoints ({@link SnapshotServer}
 * on the peer), fetching only the files the task directory does not already hold
 * ({@link SnapshotCopier}). Sources are tried in the order given (best first); a snapshot that expires
 * on its peer mid-copy is asked for again; when no source works, the outcome is
 * {@link Outcome#NOT_COPIED} (the task replays its input from Kafka) and the failure is logged and
 * counted.
 *
 * <p>Threads: {@link #recover} returns at once (any thread); copies run on {@link RecoverySettings#threads()}
 * recovery threads of their own, all sharing one {@link RecoveryThrottle}. Thread-safe.
 */
public final class PeerRecovery implements TaskRecovery, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(PeerRecovery.class.getName());
    private static final int ATTEMPTS_PER_SOURCE = 3;

    private final RecoverySettings settings;
    private final PeerTransport transport;
    private final RecoveryThrottle throttle;
    private final RecoveryMetrics metrics = new RecoveryMetrics();
    private final ExecutorService threads;

    /** @param adminToken this node's admin token, sent to peers (they share it), or null */
    public PeerRecovery(RecoverySettings settings, String adminToken) {
        this(settings, new HttpPeerTransport(adminToken));
    }

    PeerRecovery(RecoverySettings settings, PeerTransport transport) {
        this.settings = settings;
        this.transport = transport;
        this.throttle = new RecoveryThrottle(settings.rateBytesPerSecond());
        this.threads = Executors.newFixedThreadPool(settings.threads(),
                Thread.ofPlatform().daemon().name("railgun-recovery-", 0).factory());
    }

    public RecoveryMetrics metrics() {
        return metrics;
    }

    @Override
    public CompletableFuture<Outcome> recover(TaskId task, Path taskDir, List<PeerCopy> sources) {
        List<PeerCopy> from = List.copyOf(sources);
        return CompletableFuture.supplyAsync(() -> run(task, taskDir, from), threads);
    }

    private Outcome run(TaskId task, Path taskDir, List<PeerCopy> sources) {
        try {
            SnapshotCopier.finishSwap(taskDir);
        } catch (java.io.IOException e) {
            LOG.log(System.Logger.Level.WARNING, "task " + task + ": cannot tidy " + taskDir + ": " + e);
        }
        if (sources.isEmpty()) {
            return Outcome.NOT_COPIED;
        }
        metrics.started.incrementAndGet();
        long startNs = System.nanoTime();
        for (PeerCopy source : sources) {
            for (int attempt = 1; attempt <= ATTEMPTS_PER_SOURCE; attempt++) {
                try {
                    SnapshotCopier.Copied c = new SnapshotCopier(transport, throttle, metrics, settings.pieceBytes())
                            .copy(task, taskDir, source);
                    metrics.completed.incrementAndGet();
                    double seconds = (System.nanoTime() - startNs) / 1e9;
                    LOG.log(System.Logger.Level.INFO, String.format("task %s: recovered from %s in %.1f s: %,d bytes"
                                    + " fetched, %,d kept from the local copy; replaying from offset %d", task,
                            source.nodeId(), seconds, c.bytesFetched(), c.bytesKept(), c.manifest().checkpointOffset()));
                    return new Outcome(true, source.nodeId(), c.bytesFetched(), c.manifest().checkpointOffset());
                } catch (PeerTransport.PeerException e) {
                    if (e.snapshotGone()) {
                        LOG.log(System.Logger.Level.INFO, "task {0}: the snapshot expired on {1}; asking for a new one",
                                task, source.nodeId());
                    } else if (e.status == 503 && attempt < ATTEMPTS_PER_SOURCE) {
                        LOG.log(System.Logger.Level.INFO, "task {0}: {1} is busy ({2}); asking again", task,
                                source.nodeId(), e.code);
                        sleepQuietly(1_000);
                    } else {
                        LOG.log(System.Logger.Level.WARNING, "task {0}: {1} cannot supply it: {2}", task, source.nodeId(),
                                e.getMessage());
                        break;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    metrics.failed.incrementAndGet();
                    return Outcome.NOT_COPIED;
                } catch (Exception e) {
                    LOG.log(System.Logger.Level.WARNING, "task " + task + ": copy from " + source.nodeId() + " ("
                            + source.nodeUrl() + ") failed", e);
                    break;
                }
            }
        }
        metrics.failed.incrementAndGet();
        LOG.log(System.Logger.Level.WARNING, "task {0}: no peer could supply a copy ({1} tried); it rebuilds from what"
                + " its input topic still holds", task, sources.size());
        return Outcome.NOT_COPIED;
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        threads.shutdownNow();
        try {
            threads.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
