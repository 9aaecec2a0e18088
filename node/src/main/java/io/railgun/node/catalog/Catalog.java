package io.railgun.node.catalog;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the node knows of the streams and their metrics: the state the control topic's records
 * converge to, applied in log order, the same on every node. Readers get immutable snapshots
 * ({@link StreamEntry}) without locking; {@link #changes()} tells processor units when to look again.
 *
 * <p>A record applies when it is based on the version the catalog holds (or creates a stream the
 * catalog does not have); otherwise it lost a race with another node's change and is ignored: the
 * writer sees that in {@link #awaitApplied} and retries on the new state.
 */
public final class Catalog {
    private static final System.Logger LOG = System.getLogger(Catalog.class.getName());

    private volatile Map<String, StreamEntry> streams = Map.of();
    private final DdlLedger ddl = new DdlLedger();
    private volatile long changes;
    private long appliedOffset = -1;
    // outcome of recent records: offset -> applied?
    private final TreeMap<Long, Boolean> outcomes = new TreeMap<>();

    /** Applies the control record at {@code offset}: a stream's new state, or its deletion (value null). */
    public synchronized void apply(String key, byte[] value, long offset) {
        String name = CatalogCodec.streamOfKey(key);
        String ledgerStream = DdlCodec.streamOfLedgerKey(key);
        boolean applied = false;
        if (ledgerStream != null) {
            applied = ddl.apply(ledgerStream, value);
        } else if (name != null) {
            Map<String, StreamEntry> next = new TreeMap<>(streams);
            StreamEntry current = next.get(name);
            if (value == null) {
                applied = next.remove(name) != null;
                if (applied) {
                    LOG.log(System.Logger.Level.INFO, "stream ''{0}'' deleted", name);
                }
            } else {
                CatalogCodec.Decoded d = CatalogCodec.decode(value);
                // a stream the catalog lacks is taken whatever its base: compaction may have removed
                // the records before it
                boolean fresh = current == null;
                if (fresh || d.basedOn() == current.version() && d.entry().generation().equals(current.generation())) {
                    next.put(name, d.entry());
                    applied = true;
                }
            }
            if (applied) {
                ddl.streamChanged(name, next.get(name), value);
                streams = java.util.Collections.unmodifiableMap(next);
                changes++;
            }
        }
        appliedOffset = offset;
        outcomes.put(offset, applied);
        while (outcomes.size() > 10_000) {
            outcomes.pollFirstEntry();
        }
        notifyAll();
    }

    /**
     * Waits until the record at {@code offset} is applied; true when it changed the catalog, false
     * when it lost a race (or was a no-op).
     *
     * @throws InterruptedException when interrupted
     * @throws java.util.concurrent.TimeoutException when the control topic's consumer does not get there in time
     */
    public synchronized boolean awaitApplied(long offset, long timeoutMs)
            throws InterruptedException, java.util.concurrent.TimeoutException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000;
        while (appliedOffset < offset) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                throw new java.util.concurrent.TimeoutException("control record " + offset + " not applied after " + timeoutMs
                        + " ms");
            }
            wait(left);
        }
        return outcomes.getOrDefault(offset, false);
    }

    /** The changes whose DDL markers are not known to be all written (see {@link DdlLedger}). */
    public DdlLedger ddl() {
        return ddl;
    }

    /** The stream named so, or null. */
    public StreamEntry stream(String name) {
        return streams.get(name);
    }

    /** The streams by name. */
    public Collection<StreamEntry> streams() {
        return streams.values();
    }

    /** Grows by one at each applied change. */
    public long changes() {
        return changes;
    }

    /** Streams by generation (for finding a topic's stream). */
    public Map<String, StreamEntry> byGeneration() {
        Map<String, StreamEntry> m = new HashMap<>();
        for (StreamEntry e : streams.values()) {
            m.put(e.generation(), e);
        }
        return m;
    }

    /** Test and log helper: stream names with their versions. */
    @Override
    public String toString() {
        Map<String, Long> m = new LinkedHashMap<>();
        streams.forEach((k, v) -> m.put(k, v.version()));
        return "Catalog" + m;
    }
}
