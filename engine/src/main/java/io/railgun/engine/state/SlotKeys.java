package io.railgun.engine.state;

import java.util.Arrays;

/**
 * The keys of a {@link ByteKeyIndex} by slot: dense int slots handed out and reused through a free
 * list, each key's bytes copied into one byte arena. The arena is compacted into a spare buffer,
 * swapped with it, when more than half of it is garbage. Owned by the index's thread; reads change
 * no field (see {@link ByteKeyIndex} on threads).
 */
final class SlotKeys {
    // per slot: (arena offset << 32) | key length; length -1 marks a free slot
    private long[] keys;
    private int[] freeSlots = new int[16];
    private int freeCount;
    private int slotsUsed; // high-water mark of slot numbers handed out
    private int slotCap = Integer.MAX_VALUE; // the slot table doubles no further than this while below it

    private byte[] arena;
    private byte[] spare = new byte[0];
    private int arenaEnd;
    private long garbageBytes;

    SlotKeys(int slots) {
        keys = new long[slots];
        arena = new byte[Math.max(256, slots * 16)];
    }

    /** Frees every slot, keeping the arrays. */
    void clear() {
        freeCount = 0;
        slotsUsed = 0;
        arenaEnd = 0;
        garbageBytes = 0;
    }

    /** Whether a slot was ever handed out since the last {@link #clear}. */
    boolean used() {
        return slotsUsed > 0;
    }

    /** Room for {@code slots} slots, and {@code keyBytes} in the arena when it holds no key yet. */
    void reserve(int slots, long keyBytes) {
        if (arenaEnd == 0 && keyBytes > arena.length && keyBytes < Integer.MAX_VALUE - 8) {
            arena = new byte[(int) keyBytes];
            spare = new byte[0];
        }
        if (keys.length < slots) {
            keys = Arrays.copyOf(keys, slots);
        }
    }

    /** See {@link ByteKeyIndex#capSlots}. */
    void capSlots(int slots) {
        this.slotCap = Math.max(1, slots);
    }

    /** Slots are in [0, capacity). */
    int capacity() {
        return keys.length;
    }

    /** Bytes of the keys held. */
    long keyBytes() {
        return arenaEnd - garbageBytes;
    }

    /** Heap bytes of the slot table, free list, arena and its spare. */
    long heapBytes() {
        return 8L * keys.length + 4L * freeSlots.length + arena.length + spare.length;
    }

    /** A free slot holding a copy of the key. */
    int add(byte[] key, int offset, int length) {
        int slot = allocateSlot();
        if (arenaEnd + length > arena.length) {
            makeRoom(length);
        }
        System.arraycopy(key, offset, arena, arenaEnd, length);
        keys[slot] = ((long) arenaEnd << 32) | length;
        arenaEnd += length;
        return slot;
    }

    /** Frees {@code slot}: its key becomes garbage. */
    void free(int slot) {
        garbageBytes += keyLength(slot);
        keys[slot] = -1L;
        if (freeCount == freeSlots.length) {
            freeSlots = Arrays.copyOf(freeSlots, freeCount * 2);
        }
        freeSlots[freeCount++] = slot;
    }

    byte[] arena() {
        return arena;
    }

    int keyLength(int slot) {
        return (int) keys[slot];
    }

    int keyOffset(int slot) {
        return (int) (keys[slot] >>> 32);
    }

    /** Copies a slot's key into {@code dst} at {@code dstOffset}; returns its length. */
    int copyKey(int slot, byte[] dst, int dstOffset) {
        int len = keyLength(slot);
        System.arraycopy(arena, keyOffset(slot), dst, dstOffset, len);
        return len;
    }

    /** Whether the key at {@code slot} is {@code key}. */
    boolean keyEquals(int slot, byte[] key, int offset, int length) {
        long k = keys[slot];
        int start = (int) (k >>> 32);
        return (int) k == length && Arrays.equals(arena, start, start + length, key, offset, offset + length);
    }

    private int allocateSlot() {
        if (freeCount > 0) {
            return freeSlots[--freeCount];
        }
        int slot = slotsUsed++;
        if (slot == keys.length) {
            int doubled = keys.length * 2;
            // to the cap when it is below the doubled length, but by an eighth at least (a cap raised
            // a little at a time would otherwise copy every per-slot array for each small step)
            keys = Arrays.copyOf(keys, slotCap > slot && slotCap < doubled ? Math.max(slotCap, slot + slot / 8 + 1) : doubled);
        }
        return slot;
    }

    /** Compacts the arena into the spare buffer when half of it is garbage, else grows it. */
    private void makeRoom(int length) {
        long live = arenaEnd - garbageBytes;
        int needed = (int) Math.min(Integer.MAX_VALUE - 8, live + length);
        int newCapacity = arena.length;
        if (live > arena.length / 2 || needed > arena.length) {
            newCapacity = (int) Math.min(Integer.MAX_VALUE - 8, Math.max((long) arena.length * 2, needed + 1024L));
        }
        byte[] target = spare.length == newCapacity ? spare : new byte[newCapacity];
        int p = 0;
        for (int s = 0; s < slotsUsed; s++) {
            int len = keyLength(s);
            if (len >= 0) {
                System.arraycopy(arena, keyOffset(s), target, p, len);
                keys[s] = ((long) p << 32) | len;
                p += len;
            }
        }
        spare = arena.length == newCapacity ? arena : new byte[0];
        arena = target;
        arenaEnd = p;
        garbageBytes = 0;
    }
}
