package io.railgun.engine.plan;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.schema.Field;
import io.railgun.engine.state.StateStore;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link KeyTable}s of one task, one per distinct set of GROUP BY fields and shared by every
 * group-by node on those fields, each over the state store's keyed state of the same name (dropped
 * with the last node); and the checkpoint snapshot taken over all of them.
 *
 * <p>Owned by the task's thread.
 */
final class KeyTables {
    private final StateStore stateStore;
    private final Map<String, KeyTable> byFields = new HashMap<>();
    private KeyTable[] snapshotting = new KeyTable[0]; // the tables of the snapshot being taken
    private KeyTable[] tables = new KeyTable[0]; // byFields' values (no iterator per event)

    KeyTables(StateStore stateStore) {
        this.stateStore = stateStore;
    }

    /** The table of the GROUP BY fields named {@code fieldsKey}, created over the store's keyed state if new. */
    KeyTable forFields(String fieldsKey, List<Field> fields) {
        KeyTable t = byFields.get(fieldsKey);
        if (t == null) {
            t = new KeyTable(fieldsKey, new KeyEncoder(fields), stateStore.keyedState(fieldsKey));
            byFields.put(fieldsKey, t);
            tables = byFields.values().toArray(new KeyTable[0]);
        }
        return t;
    }

    /** Forgets {@code table}, and drops its keyed state, once no group-by node uses it. */
    void releaseIfUnused(KeyTable table) {
        if (table.isEmpty()) {
            byFields.remove(table.name());
            tables = byFields.values().toArray(new KeyTable[0]);
            stateStore.drop(table.name());
        }
    }

    /** Begins a snapshot of every key changed since the last one (a checkpoint; see {@link KeyTable}). */
    void beginSnapshot() {
        snapshotting = tables; // (replaced when a table comes or goes, never written)
        for (KeyTable t : snapshotting) {
            t.beginSnapshot();
        }
    }

    /** Saves up to {@code budget} keys of the snapshot per key table; true once it is complete. */
    boolean sweepSnapshot(int budget) {
        boolean done = true;
        for (KeyTable t : snapshotting) {
            done &= t.sweepSnapshot(budget);
        }
        return done;
    }

    /** Notes that {@code row}'s keys will be looked up soon, in every key table. */
    void prefetch(EventRow row) {
        for (KeyTable t : tables) {
            t.prefetch(row);
        }
    }

    /** Loads what {@link #prefetch} noted; returns anything. */
    long issuePrefetches() {
        long sum = 0;
        for (KeyTable t : tables) {
            sum += t.issuePrefetches();
        }
        return sum;
    }

    /** Keys in memory, over every key table. */
    long hotKeys() {
        long n = 0;
        for (KeyTable t : byFields.values()) {
            n += t.hotKeys();
        }
        return n;
    }

    /** Keys moved out of memory to a durable store's cold tier, over every key table. */
    long evictions() {
        long n = 0;
        for (KeyTable t : byFields.values()) {
            n += t.evictions();
        }
        return n;
    }

    /** Keys loaded back from the cold tier, over every key table. */
    long coldLoads() {
        long n = 0;
        for (KeyTable t : byFields.values()) {
            n += t.loads();
        }
        return n;
    }
}
