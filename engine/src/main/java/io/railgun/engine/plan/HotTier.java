package io.railgun.engine.plan;

import io.railgun.engine.state.ColdKeys;
import io.railgun.engine.state.KeyedState;
import io.railgun.engine.state.StateReader;
import io.railgun.engine.state.StateWriter;
import java.util.Arrays;

/**
 * A {@link KeyTable}'s keys in memory when a durable store is behind it ({@link KeyedState#cold()}
 * not null): at most {@link KeyedState#hotLimit()} keys are hot. Inserting one more evicts a key
 * chosen by a clock sweep (recently used keys get a second chance); a changed key is written to
 * the cold tier (whole, or as a patch: see below), an unchanged one (its cold copy is current) is
 * dropped, the cold tier told ({@link ColdKeys#leftCurrent}: it keeps a filter of the keys whose
 * state may be outside the hot tier). A key that is not hot is looked up in the cold tier and
 * loaded back into a free slot. Stored form of a key: {@link KeyRecordCodec}.
 *
 * <p><b>Snapshots</b> (for checkpoints) are taken without a pause proportional to the keys:
 * {@link #beginSnapshot()} marks the keys changed since the last one by swapping the meaning of two
 * flag bits (those changed are those whose "changed" bit is set, which becomes the "to save" bit;
 * the other bit, clear everywhere once the last snapshot's keys were all saved, becomes the
 * "changed" bit); {@link #sweepSnapshot} then saves a bounded number of them per call, and a
 * marked key about to change, or to be evicted, is saved first (copy on write). So the snapshot
 * holds every key as it was when it began.
 *
 * <p><b>Incremental.</b> Each slot keeps the change bits of the nodes changed since the key's last
 * stored part. A snapshot or an eviction stores a key whose stored copy is current in the other
 * nodes as a patch of the changed nodes only when that pays, else whole ({@link StoredParts}).
 *
 * <p><b>Emptied keys.</b> A key that leaves every window stays hot, empty ({@link KeyTable#unhold}),
 * until an arrival takes it back, room is needed (emptied keys are freed first, oldest first, before
 * the clock evicts any key with state; the clock hand frees one it meets too), or the sweep of the
 * first snapshot begun after it emptied frees it; a snapshot that begins while such a key is hot
 * holds no state for it (its stored copy deleted in the snapshot).
 *
 * <p><b>Where the flags are.</b> A key's flags and change bits are in its record ({@link
 * KeyTable#TIER}: the flags in the low byte, the change bits in the high 32 bits), which the event
 * changing the key touches anyway; in arrays beside the records they cost E1 two more cache misses
 * per event. Owned by the task's thread.
 */
final class HotTier {
    // two bits that swap roles at each snapshot's start: dirty (changed since its cold copy was
    // written) and snapshot (changed before the snapshot being taken began, not saved into it yet)
    private static final byte BIT_A = 1;
    private static final byte BIT_B = 8;
    private static final byte DURABLE = 2; // the cold tier holds a copy of it: current in the nodes not marked changed
    private static final byte REFERENCED = 4; // used since the clock hand last passed
    private static final byte WHOLE = 16; // its next stored part must be whole (nodes laid out again, or removed ones stored)
    private static final byte EMPTIED = 32; // it left every window and is kept hot (KeyTable#unhold)
    private static final byte SAVED = 64; // a snapshot saved it since it came: its copy's number is in snapshotCopies

    private final KeyTable table;
    private final KeyedState keys;
    private final ColdKeys cold;
    private final KeyRecordCodec codec;
    private final StoredParts parts;
    private static final long FLAGS = 0xFF; // the flags' part of the word; the change bits are above 32
    private byte dirty = BIT_A;
    private byte snapshot = BIT_B;
    // per slot: the number of its copy in the last snapshot that saved it, when flagged SAVED (the
    // flag, in the record, is cleared with the slot: no write here per new key); told to the cold
    // tier when the key is evicted, in case that snapshot is still held (ColdKeys#copyLeft)
    private long[] snapshotCopies = new long[0];
    private int clockHand;
    private final SlotQueue emptiedKeys = new SlotQueue(); // oldest first; (stale entries skipped)
    private boolean sweptOnce; // a snapshot's keys were all saved, some serialised: the copy size measured on them
    private boolean sweptKeys; // the sweep of this snapshot serialised a key
    private final StateReader in = new StateReader();
    private byte[] keyScratch = new byte[64];
    private long evictions;
    private long loads;
    private int sweep = -1; // next slot the snapshot sweep looks at; -1: no snapshot being taken

    HotTier(KeyTable table, KeyedState keys, KeyRecordCodec codec) {
        this.table = table;
        this.keys = keys;
        this.cold = keys.cold();
        this.codec = codec;
        this.parts = new StoredParts(codec);
    }

    /** The key at {@code slot} is about to change in the node of {@code bit}. */
    void changing(int slot, int bit) {
        long[] page = table.page(slot);
        int i = table.base(slot) + KeyTable.TIER;
        long word = page[i];
        if ((word & (snapshot | EMPTIED)) != 0) {
            if ((word & snapshot) != 0) {
                saveSnapshot(slot);
                word = page[i];
            }
            if ((word & EMPTIED) != 0) {
                word &= ~EMPTIED; // an arrival takes it back
                keys.emptied(-1);
            }
        }
        page[i] = word | dirty | REFERENCED | (bit & 0xFFFF_FFFFL) << 32;
    }

    /** The key at {@code slot} left every window: kept hot, empty (see "Emptied keys" above). */
    void emptied(int slot) {
        flags(slot, flags(slot) | EMPTIED);
        keys.emptied(1);
        emptiedKeys.add(slot, 2 * snapshotCopies.length); // (left out past that: to the clock hand)
    }

    /** The flags of the key at {@code slot} (0 for a slot without records). */
    private int flags(int slot) {
        return (int) (table.records().get(slot, KeyTable.TIER) & FLAGS);
    }

    /** Sets the flags of the key at {@code slot}, keeping its change bits. */
    private void flags(int slot, int flags) {
        long[] page = table.page(slot);
        int i = table.base(slot) + KeyTable.TIER;
        page[i] = page[i] & ~FLAGS | flags & FLAGS;
    }

    /** The change bits of the nodes changed since the key at {@code slot} was last stored. */
    private int changed(int slot) {
        return (int) (table.records().get(slot, KeyTable.TIER) >>> 32);
    }

    /** Sets the word of the key at {@code slot}: its flags and no change bits. */
    private void reset(int slot, int flags) {
        table.page(slot)[table.base(slot) + KeyTable.TIER] = flags & FLAGS;
    }

    /** A key not hot: loaded from the cold tier into a new slot, else (when {@code insert}) new; else -1. */
    int lookupCold(byte[] key, int len, boolean insert) {
        makeRoom(); // before loading: the loaded value is read from buffers an eviction may write to
        if (!cold.load(key, 0, len, in)) {
            return insert ? table.insertHot(key, len) : -1;
        }
        loads++;
        int slot = table.insertHot(key, len);
        int bytes = in.remaining();
        parts.loaded(slot, bytes, codec.read(table.records(), slot, in));
        flags(slot, codec.lastReadSkipped() ? DURABLE | WHOLE : DURABLE);
        if (table.holders(slot) == 0 && !insert) {
            table.release(slot); // only state of deleted metrics: the key is gone, and its copy too
            return -1;
        }
        return slot;
    }

    /** A new key's slot: nothing stored, nothing changed. */
    void inserted(int slot) {
        reset(slot, 0);
        parts.inserted(slot);
    }

    /** The key at {@code slot} left every window: its stored copy goes too. */
    void released(int slot) {
        if ((flags(slot) & DURABLE) != 0) {
            cold.delete(keyScratch, 0, copyKey(slot));
        }
        reset(slot, 0);
    }

    /**
     * Evicts a key when the hot tier is full. The limit is asked each time (the store keeps it, and
     * recomputes it only when its inputs change): a node's budget shrinks it as tasks come; then two
     * keys go per insertion until the tier is within it again.
     */
    void makeRoom() {
        int limit = keys.hotLimit();
        if (keys.size() >= limit) {
            evictOne();
            if (keys.size() >= limit) {
                evictOne();
            }
        }
    }

    /**
     * Makes room for one key: frees the key emptied longest ago that is still emptied (those are
     * the first to go: they hold nothing), else evicts one by the clock.
     */
    private void evictOne() {
        for (int slot = emptiedKeys.poll(); slot >= 0; slot = emptiedKeys.poll()) {
            if ((flags(slot) & EMPTIED) != 0) {
                freeEmptied(slot);
                return;
            }
        }
        evictByClock();
    }

    /** Moves one key out of memory: the clock hand's first key not used since it last came by. */
    private void evictByClock() {
        int slots = snapshotCopies.length;
        int victim;
        while (true) {
            clockHand = clockHand + 1 >= slots ? 0 : clockHand + 1;
            if (table.holders(clockHand) == 0) {
                if ((flags(clockHand) & EMPTIED) != 0) {
                    freeEmptied(clockHand); // room made, nothing to store
                    return;
                }
                continue; // a free slot
            }
            int f = flags(clockHand);
            if ((f & REFERENCED) != 0) {
                flags(clockHand, f & ~REFERENCED);
                continue;
            }
            victim = clockHand;
            break;
        }
        evictions++;
        if (!sweptOnce && evictions % REMEASURE_EVICTIONS == 0) {
            reportKeyBytes(); // the limit may rise: the windows fill
        }
        if ((flags(victim) & snapshot) != 0) {
            saveSnapshot(victim);
        }
        if ((flags(victim) & SAVED) != 0) {
            cold.copyLeft(keyScratch, 0, copyKey(victim), snapshotCopies[victim]);
        }
        if ((flags(victim) & dirty) != 0) {
            StateWriter value = serialise(victim);
            cold.store(keyScratch, 0, copyKey(victim), value.buffer(), 0, value.length(), parts.isPatch(value));
        } else {
            cold.leftCurrent(keyScratch, 0, copyKey(victim));
        }
        table.evicted(victim); // (its record cleared: no flags)
    }

    /**
     * Begins a snapshot: every key changed since the last one is to be saved as it is now. Nothing
     * is visited (the two bits swap roles) nor serialised yet.
     *
     * @throws IllegalStateException when the last snapshot's keys are not all saved yet (its
     *                               {@link #sweepSnapshot} did not return true)
     */
    void beginSnapshot() {
        if (sweep >= 0) {
            throw new IllegalStateException("a snapshot of key table " + table.name() + " is still being taken");
        }
        reportKeyBytes();
        byte b = dirty;
        dirty = snapshot;
        snapshot = b;
        sweep = 0;
    }

    /**
     * Saves up to {@code budget} keys of the snapshot being taken (looking at up to 16 times as
     * many slots); true once all are saved (or when none is being taken).
     */
    boolean sweepSnapshot(int budget) {
        if (sweep < 0) {
            return true;
        }
        int saved = 0;
        int end = (int) Math.min(snapshotCopies.length, sweep + 16L * budget);
        while (sweep < end && saved < budget) {
            if ((flags(sweep) & snapshot) != 0) { // (a free slot has no flags: released() and evictOne() clear them)
                if (table.holders(sweep) == 0) {
                    freeEmptied(sweep);
                } else {
                    saveSnapshot(sweep);
                    sweptKeys = true;
                }
                saved++;
            }
            sweep++;
        }
        if (sweep >= snapshotCopies.length) {
            sweep = -1;
            sweptOnce |= sweptKeys;
            // the keys just serialised measure a copy's size (until then a sample of keys stands
            // in: KeyRecordCodec.sample): not left to the next snapshot's start
            reportKeyBytes();
            return true;
        }
        return false;
    }

    /**
     * Frees the slot of a key that left every window ({@link KeyTable#unhold}): none in the snapshot
     * being taken if it was empty when it began, its stored copy deleted.
     */
    private void freeEmptied(int slot) {
        long copy = (flags(slot) & snapshot) != 0 ? saveSnapshot(slot) : -1;
        if (copy >= 0) { // deleted in the snapshot: its deletion found there, not deleted again
            cold.copyLeft(keyScratch, 0, copyKey(slot), copy);
            flags(slot, flags(slot) & ~DURABLE);
        }
        keys.emptied(-1);
        table.release(slot); // (released(): a stored copy left is deleted with the next checkpoint)
    }

    /**
     * Saves a key into the snapshot: a patch of its changed nodes when its stored copy allows, else
     * whole; an emptied key as none (its stored copy, if any, deleted in the snapshot). Returns the
     * number of the deletion when one was kept, else -1.
     *
     * <p>The cold tier finds a snapshot's copies only when told ({@link ColdKeys#copyLeft}), and a
     * key that stays hot is not told of: so an emptied key whose copy is a deletion stays marked
     * durable (and whole), and is deleted again with the next checkpoint if it leaves later
     * ({@link #released}), unless {@link #freeEmptied} tells the cold tier of the deletion.
     */
    private long saveSnapshot(int slot) {
        if (table.holders(slot) == 0) {
            int f = flags(slot);
            long copy = -1;
            if ((f & DURABLE) != 0) {
                copy = cold.deleteSnapshot(keyScratch, 0, copyKey(slot));
            }
            reset(slot, f & ~snapshot | WHOLE); // no stored copy now: the next one is whole
            return copy;
        }
        StateWriter value = serialise(slot);
        snapshotCopies[slot] = cold.storeSnapshot(keyScratch, 0, copyKey(slot), value.buffer(), 0, value.length(),
                parts.isPatch(value));
        flags(slot, flags(slot) & ~(snapshot | WHOLE) | DURABLE | SAVED);
        return -1;
    }

    /** Serialises the key at {@code slot} to be stored, whole or as a patch ({@link StoredParts}); its changes are then stored. */
    private StateWriter serialise(int slot) {
        int flags = flags(slot);
        StateWriter value = parts.write(table.records(), slot, keys.keyLength(slot),
                (flags & (DURABLE | WHOLE)) == DURABLE, changed(slot));
        reset(slot, flags);
        return value;
    }

    /** The arrays grew to {@code slots}. */
    void grow(int slots) {
        parts.grow(slots);
        snapshotCopies = Arrays.copyOf(snapshotCopies, slots);
        reportKeyBytes();
    }

    /** The nodes were laid out again: change bits moved, nodes came or went; every key's next part is whole. */
    void relaidOut(int allNodes) {
        parts.relaidOut(allNodes);
        KeyRecords records = table.records();
        for (int s = 0, allocated = records.slots(); s < allocated; s++) {
            long[] page = records.page(s);
            page[records.base(s) + KeyTable.TIER] |= WHOLE;
        }
        reportKeyBytes();
    }

    /**
     * Bytes per slot here and in the key table: records (with the flags and change bits), stored
     * parts ({@link StoredParts#BYTES_PER_SLOT}), snapshot copy, and the key table's slot hints (which grow with its tails, up to 64
     * bytes a slot).
     */
    private void reportKeyBytes() {
        if (!sweptOnce) {
            codec.sample(table, keys); // (again every REMEASURE_EVICTIONS evictions, as the windows fill)
        }
        codec.report(keys, 8 * table.stride() + StoredParts.BYTES_PER_SLOT + 8 + table.hintBytesPerSlot());
    }

    /** Evictions between two measures until a snapshot's keys were saved. */
    private static final int REMEASURE_EVICTIONS = 1 << 14;

    private int copyKey(int slot) {
        int len = keys.keyLength(slot);
        if (keyScratch.length < len) {
            keyScratch = new byte[Math.max(len, keyScratch.length * 2)];
        }
        return keys.copyKey(slot, keyScratch, 0);
    }

    long evictions() {
        return evictions;
    }

    long loads() {
        return loads;
    }
}
