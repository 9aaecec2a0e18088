package io.railgun.engine.state.durable;

import io.railgun.engine.state.ByteKeyIndex;
import io.railgun.engine.state.ColdKeys;
import io.railgun.engine.state.KeyedState;
import io.railgun.engine.state.StateReader;

/**
 * One key table of a {@link DurableStateStore}: its hot keys in memory (an index of key bytes to
 * the key table's slots), the others behind {@link ColdKeys} (the store's write buffers, then
 * RocksDB, under the table's prefix). Also the dedup ids moved out of memory, which use only the
 * cold side.
 *
 * <p>Its hot-key limit comes from {@link HotTierSizing}: a key costs the key table's reported
 * per-slot and per-key bytes ({@link #keyBytes}) plus this index's own heap per slot, all measured,
 * and the limit is recomputed when one of them is reported anew, when the table passes half a
 * limit that gave it all it wanted, or when the node's tasks or their wants change — not per
 * insertion. Owned by the task's thread.
 */
final class StoreTable implements KeyedState, ColdKeys {
    /** Fewest keys a table wants room for ({@link #wantedBytes()}). */
    static final int WANTED_KEYS_FLOOR = 1024;

    final byte[] prefix;
    final ByteKeyIndex hot = new ByteKeyIndex(1024);
    // whether the filter of stored keys holds this table's keys: not the dedup ids', which are
    // too many to read back at open for a long horizon and are looked up in RocksDB directly
    final boolean filtered;
    private final DurableStateStore store;
    private final ChangeBuffers buffers; // the store's: the cold tier's reads and writes go there
    private int slotBytes;
    private int externalBytesPerKey;
    private int serialisedBytesPerKey;
    private int limit;
    private int emptied; // hot keys without state (see KeyedState#emptied)
    // a table given all it wanted has its part recomputed when it passes half its limit (never: one
    // that got less, or is at the option's cap)
    private int regrowAt = Integer.MAX_VALUE;

    StoreTable(DurableStateStore store, ChangeBuffers buffers, String name, boolean filtered) {
        this.store = store;
        this.buffers = buffers;
        this.prefix = DurableStateStore.prefixOf(name);
        this.filtered = filtered;
    }

    /**
     * Heap bytes one hot key costs, as measured now: the key table's per-slot arrays, this index's
     * arrays per slot (slot table, key bytes, and the buckets it will have with every slot used),
     * the mean per-key state kept outside the arrays, and its checkpoint copy
     * ({@link #copyBytesPerKey()}).
     */
    long bytesPerKey() {
        long indexPerSlot = (hot.heapBytesWhenFull() + hot.capacity() - 1) / hot.capacity();
        return slotBytes + indexPerSlot + externalBytesPerKey + copyBytesPerKey();
    }

    /**
     * What a hot key's copy in a checkpoint holds (every hot key changed since the last checkpoint
     * is copied into it, so as many copies as hot keys at worst, held until written): its
     * serialised state and key bytes, the table's prefix, and the write buffer's per-entry bytes.
     * One copy: a checkpoint begins only once the last one is written.
     */
    long copyBytesPerKey() {
        // before any key was serialised, its records' bytes stand in for its serialised state
        return (serialisedBytesPerKey == 0 ? slotBytes : serialisedBytesPerKey) + prefix.length + WriteBuffer.ENTRY_BYTES;
    }

    /**
     * Hot-tier bytes this table wants: room for four times the keys it holds with state (at least
     * {@link #WANTED_KEYS_FLOOR}), so a table well inside its part asks for less than a full one.
     * Emptied keys kept hot do not count: they take room only while nothing else wants it.
     */
    long wantedBytes() {
        return bytesPerKey() * Math.max(WANTED_KEYS_FLOOR, 4L * (hot.size() - emptied));
    }

    @Override
    public void emptied(int delta) {
        emptied += delta;
    }

    /** Recomputes the limit from this table's part of the task's share ({@link HotTierSizing#split}). */
    void resize(HotTierSizing sizing, long partBytes, long wantedBytes) {
        limit = sizing.limit(bytesPerKey(), partBytes);
        hot.capSlots(limit); // the tier evicts before inserting, so it never holds more (while the limit stands)
        regrowAt = partBytes >= wantedBytes && limit < sizing.cap() ? limit / 2 : Integer.MAX_VALUE;
    }

    @Override
    public void keyBytes(int slotBytes, int externalBytesPerKey, int serialisedBytesPerKey) {
        this.slotBytes = slotBytes;
        this.externalBytesPerKey = externalBytesPerKey;
        this.serialisedBytesPerKey = serialisedBytesPerKey;
        store.resizeAll(); // its part moves the others'
    }

    @Override
    public int hotLimit() {
        if (store.sizingStale() || hot.size() - emptied > regrowAt) {
            store.resizeAll(); // a task of the node came or went, or this table outgrew what it wanted
        }
        return limit;
    }

    @Override
    public int find(byte[] key, int offset, int length) {
        return hot.find(key, offset, length);
    }

    @Override
    public void prefetch(byte[] key, int offset, int length) {
        hot.prefetch(key, offset, length);
    }

    @Override
    public long issuePrefetches() {
        return hot.issuePrefetches();
    }

    @Override
    public int prefetchedSlots(int[] slots) {
        return hot.prefetchedSlots(slots);
    }

    @Override
    public int findOrInsert(byte[] key, int offset, int length) {
        return hot.findOrInsert(key, offset, length);
    }

    @Override
    public void release(int slot) {
        hot.removeSlot(slot);
    }

    @Override
    public int capacity() {
        return hot.capacity();
    }

    @Override
    public int size() {
        return hot.size();
    }

    @Override
    public int copyKey(int slot, byte[] dst, int dstOffset) {
        return hot.copyKey(slot, dst, dstOffset);
    }

    @Override
    public int keyLength(int slot) {
        return hot.keyLength(slot);
    }

    @Override
    public ColdKeys cold() {
        return this;
    }

    @Override
    public boolean load(byte[] key, int offset, int length, StateReader into) {
        return buffers.load(prefix, filtered, key, offset, length, into);
    }

    @Override
    public void store(byte[] key, int offset, int length, byte[] value, int valueOffset, int valueLength, boolean patch) {
        buffers.store(prefix, filtered, patch, key, offset, length, value, valueOffset, valueLength);
    }

    @Override
    public void leftCurrent(byte[] key, int offset, int length) {
        buffers.leftCurrent(prefix, filtered, key, offset, length);
    }

    @Override
    public long storeSnapshot(byte[] key, int offset, int length, byte[] value, int valueOffset, int valueLength,
            boolean patch) {
        return buffers.storeSnapshot(prefix, patch, key, offset, length, value, valueOffset, valueLength);
    }

    @Override
    public void copyLeft(byte[] key, int offset, int length, long copy) {
        buffers.copyLeft(prefix, key, offset, length, copy);
    }

    @Override
    public long deleteSnapshot(byte[] key, int offset, int length) {
        return buffers.deleteSnapshot(prefix, key, offset, length);
    }

    @Override
    public void delete(byte[] key, int offset, int length) {
        buffers.delete(prefix, key, offset, length);
    }

    @Override
    public void prefetchWrite(byte[] key, int offset, int length) {
        buffers.prefetchWrite(prefix, key, offset, length);
    }

    @Override
    public long issueWritePrefetches() {
        return buffers.issueWritePrefetches();
    }
}
