package io.railgun.node.catalog;

import io.railgun.node.catalog.DdlCodec.Marker;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which streams have a change whose DDL markers are not known to be all written: the part of the
 * catalog that lets starting nodes finish half-done changes. Applied by the {@link Catalog} in
 * control-topic order (the control reader's thread), the same on every node; read from any thread
 * (immutable {@link Pending} values in a concurrent map).
 *
 * <p><b>The protocol.</b> A change that needs markers (a schema change, metrics added, a metric
 * removed) is written in three steps: (1) the stream's record carrying the markers
 * ({@link DdlCodec#withMarkers}; from then on the change is <i>pending</i>, owned by its writer,
 * attempt 0); (2) the markers, one per partition of the partitioner's topic; (3) a ledger record
 * {@code done} (the change is <i>settled</i>). A node that dies between (1) and (3) leaves the change
 * pending. Another node may <i>claim</i> it with a ledger record {@code claimed} of a higher attempt;
 * claims are decided by log order (the first one of an attempt applies, the others are ignored, as
 * {@link Catalog} decides races between stream records), so one node at a time writes the markers,
 * then {@code done}. A node may claim a pending change at its start when the change's owner has its
 * own node id (that owner was its previous run, now dead), and at any time once the change is older
 * than the grace period (the owner, if alive, can no longer deliver a marker: its producer gave up).
 * No change to a stream is published while its previous change is pending ({@code FrontEnd} refuses
 * with 503 {@code change_pending}, or finishes it when it may), so the duplicates a takeover may
 * write (a partition that got the dead owner's marker gets it again) follow each other in the
 * partition with no other DDL between them, and every marker kind is idempotent there: a statement
 * whose metrics the task has is skipped, removing an absent metric does nothing, a schema no larger
 * than the task's changes nothing.
 */
public final class DdlLedger {
    private static final System.Logger LOG = System.getLogger(DdlLedger.class.getName());

    /**
     * A stream's change whose markers are not known to be all written.
     *
     * @param version the stream's version the change made (statement ids are versions)
     * @param owner   the node writing its markers: the change's writer, or the last claim's node
     * @param atMs    when the owner wrote the change or its claim (its clock, ms since the epoch)
     * @param attempt 0 for the writer, then one more per claim
     */
    public record Pending(String stream, String generation, long version, List<Marker> markers, String owner, long atMs,
            int attempt) {
        public Pending {
            markers = List.copyOf(markers);
        }
    }

    private final Map<String, Pending> pending = new ConcurrentHashMap<>();

    /** The stream's pending change, or null when it has none. */
    public Pending pending(String stream) {
        return pending.get(stream);
    }

    /** Every pending change. */
    public List<Pending> pending() {
        return new ArrayList<>(pending.values());
    }

    /** A stream record was applied ({@code entry} null: the stream was deleted). Control reader's thread. */
    void streamChanged(String name, StreamEntry entry, byte[] value) {
        if (entry == null) {
            pending.remove(name);
            return;
        }
        DdlCodec.Markers m;
        try {
            m = DdlCodec.markers(value);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "stream ''{0}'' version {1}: its DDL markers are not readable by this node"
                    + " ({2}); it will not finish them if their writer dies", name, entry.version(), e.getMessage());
            m = null;
        }
        if (m == null || m.markers().isEmpty()) {
            pending.remove(name);
        } else {
            pending.put(name, new Pending(name, entry.generation(), entry.version(), m.markers(), m.writer(), m.atMs(), 0));
        }
    }

    /** A ledger record; true when it changed the ledger (a claim that won, or a completion). Control reader's thread. */
    boolean apply(String stream, byte[] value) {
        if (value == null) {
            return false;
        }
        DdlCodec.LedgerRecord r;
        try {
            r = DdlCodec.ledgerRecord(value);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "DDL ledger record of stream ''{0}'' ignored: {1}", stream, e.getMessage());
            return false;
        }
        Pending p = pending.get(stream);
        if (p == null || !p.generation().equals(r.generation()) || p.version() != r.version()) {
            return false;
        }
        if (r.done()) {
            pending.remove(stream);
            return true;
        }
        // higher than the last claim, not only the next one: compaction may have removed the claims between
        if (r.attempt() > p.attempt()) {
            pending.put(stream, new Pending(stream, p.generation(), p.version(), p.markers(), r.by(), r.atMs(), r.attempt()));
            return true;
        }
        return false;
    }
}
