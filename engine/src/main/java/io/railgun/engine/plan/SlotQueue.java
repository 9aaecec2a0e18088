package io.railgun.engine.plan;

/**
 * A FIFO of slots: the {@link HotTier}'s emptied keys, oldest first (a slot may be in it more than
 * once: emptied, taken back, emptied again; the tier skips an entry whose key is no longer
 * emptied). A ring that doubles when full, up to a limit the caller gives (twice the slots), past
 * which a slot is left out. A fixed 4,096 overflowed in FRAUD (tens of thousands of cards empty
 * each second as their 180-day window passes them): the keys left out were found by the clock
 * hand only, which evicted keys with state meanwhile. Owned by the task's thread.
 */
final class SlotQueue {
    private int[] ring = new int[1 << 12];
    private int head;
    private int tail;

    /** Appends {@code slot}, growing the ring when full while it is smaller than {@code limit}; false when left out. */
    boolean add(int slot, int limit) {
        int next = (tail + 1) & (ring.length - 1);
        if (next == head && ring.length < limit) {
            grow();
            next = tail + 1;
        }
        if (next == head) {
            return false;
        }
        ring[tail] = slot;
        tail = next;
        return true;
    }

    /** The oldest slot, removed; -1 when the queue is empty. */
    int poll() {
        if (head == tail) {
            return -1;
        }
        int slot = ring[head];
        head = (head + 1) & (ring.length - 1);
        return slot;
    }

    private void grow() {
        int[] grown = new int[ring.length * 2];
        int n = 0;
        for (int i = head; i != tail; i = (i + 1) & (ring.length - 1)) {
            grown[n++] = ring[i];
        }
        ring = grown;
        head = 0;
        tail = n;
    }
}
