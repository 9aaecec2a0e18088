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
 * and the limit is recomputed when one of them is reported anew, not per insertion. Owned by the
 * task's thread.
 */
final class StoreTable implements KeyedState, ColdKeys {
    final byte[] prefix;
    final ByteKeyIndex hot = new ByteKeyIndex(1024);
    // whether the filter of stored keys holds this table's keys: not the dedup ids', which are
    // too many to read back at open for a long horizon and are looked up in RocksDB directly
    final boolean filtered;
    private final DurableStateStore store;
    private int slotBytes;
    private int externalBytesPerKey;
    private int serialisedBytesPerKey;
    private int limit;

    StoreTable(DurableStateStore store, String name, boolean filtered) {
        this.store = store;
        this.prefix = DurableStateStore.prefixOf(name);
        this.filtered = filtered;
    }

    /**
     * Heap bytes one hot key costs, as measured now: the key table's per-slot arrays, this index's
     * arrays per slot (buckets, slot table, key bytes), the mean per-key state kept outside the
     * arrays, and its checkpoint copy ({@link #copyBytesPerKey()}).
     */
    long bytesPerKey() {
        long indexPerSlot = (hot.heapBytes() + hot.capacity() - 1) / hot.capacity();
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

    /** Recomputes the limit from the sizing's current share. */
    void resize(HotTierSizing sizing) {
        limit = sizing.limit(bytesPerKey());
    }

    @Override
    public void keyBytes(int slotBytes, int externalBytesPerKey, int serialisedBytesPerKey) {
        this.slotBytes = slotBytes;
        this.externalBytesPerKey = externalBytesPerKey;
        this.serialisedBytesPerKey = serialisedBytesPerKey;
        store.resize(this);
    }

    @Override
    public int hotLimit() {
        if (store.sizingStale()) {
            store.resizeAll(); // a task of the node came or went: every share changed
        }
        return limit;
    }

    @Override
    public int find(byte[] key, int offset, int length) {
        return hot.find(key, offset, length);
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
        return store.load(prefix, filtered, key, offset, length, into);
    }

    @Override
    public void store(byte[] key, int offset, int length, byte[] value, int valueOffset, int valueLength, boolean patch) {
        store.store(prefix, filtered, patch, key, offset, length, value, valueOffset, valueLength);
    }

    @Override
    public void storeSnapshot(byte[] key, int offset, int length, byte[] value, int valueOffset, int valueLength,
            boolean patch) {
        store.storeSnapshot(prefix, filtered, patch, key, offset, length, value, valueOffset, valueLength);
    }

    @Override
    public void delete(byte[] key, int offset, int length) {
        store.delete(prefix, key, offset, length);
    }
}
