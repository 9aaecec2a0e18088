package io.railgun.node.ddl;

import io.railgun.node.catalog.Catalog;
import io.railgun.node.catalog.DdlLedger.Pending;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Finishes DDL changes left half done (see {@link io.railgun.node.catalog.DdlLedger}): at the node's
 * start, before it serves, those its own previous run owned (that run is dead) and those past their
 * grace period; then, every {@link #CHECK_EVERY_MS} ms on a daemon thread of its own
 * ({@code railgun-ddl-reconciler}), those past their grace period. Every node does it; the ledger's
 * claims let one node at a time write a change's markers. {@link #finishAtStart} runs on the caller's
 * thread; {@link #close} may be called from any thread.
 */
public final class DdlReconciler implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(DdlReconciler.class.getName());
    static final long CHECK_EVERY_MS = 5_000;

    private final Catalog catalog;
    private final DdlWriter writer;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().name("railgun-ddl-reconciler").daemon(true).unstarted(r));

    public DdlReconciler(Catalog catalog, DdlWriter writer) {
        this.catalog = catalog;
        this.writer = writer;
    }

    /** Finishes what this node may finish now that it starts; returns how many changes it finished. */
    public int finishAtStart() {
        return finishDue(true);
    }

    /** Checks again every {@link #CHECK_EVERY_MS} ms. */
    public void start() {
        timer.scheduleWithFixedDelay(() -> finishDue(false), CHECK_EVERY_MS, CHECK_EVERY_MS, TimeUnit.MILLISECONDS);
    }

    private int finishDue(boolean atStart) {
        int finished = 0;
        for (Pending p : catalog.ddl().pending()) {
            if (!writer.mayFinish(p, atStart)) {
                continue;
            }
            try {
                if (writer.finish(p)) {
                    finished++;
                }
            } catch (RuntimeException e) {
                // tried again at the next check
                LOG.log(System.Logger.Level.WARNING, "stream ''{0}'': its half-done change to version {1} could not be"
                        + " finished yet: {2}", p.stream(), p.version(), e.getMessage());
            }
        }
        return finished;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
