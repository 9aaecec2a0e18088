package io.railgun.engine.state;

import java.util.HashMap;
import java.util.Map;

/** A {@link StateStore} held in heap: each keyed state is a {@link ByteKeyIndex}. */
public final class InMemoryStateStore implements StateStore {
    private final Map<String, KeyedState> states = new HashMap<>();

    @Override
    public KeyedState keyedState(String name) {
        return states.computeIfAbsent(name, n -> new IndexKeyedState(new ByteKeyIndex(1024)));
    }

    @Override
    public void drop(String name) {
        states.remove(name);
    }

    /** A keyed state over a {@link ByteKeyIndex}, every key in memory. */
    record IndexKeyedState(ByteKeyIndex index) implements KeyedState {
        @Override
        public int find(byte[] key, int offset, int length) {
            return index.find(key, offset, length);
        }

        @Override
        public void prefetch(byte[] key, int offset, int length) {
            index.prefetch(key, offset, length);
        }

        @Override
        public long issuePrefetches() {
            return index.issuePrefetches();
        }

        @Override
        public int prefetchedSlots(int[] slots) {
            return index.prefetchedSlots(slots);
        }

        @Override
        public int findOrInsert(byte[] key, int offset, int length) {
            return index.findOrInsert(key, offset, length);
        }

        @Override
        public void release(int slot) {
            index.removeSlot(slot);
        }

        @Override
        public int capacity() {
            return index.capacity();
        }

        @Override
        public int size() {
            return index.size();
        }

        @Override
        public int copyKey(int slot, byte[] dst, int dstOffset) {
            return index.copyKey(slot, dst, dstOffset);
        }

        @Override
        public int keyLength(int slot) {
            return index.keyLength(slot);
        }
    }
}
