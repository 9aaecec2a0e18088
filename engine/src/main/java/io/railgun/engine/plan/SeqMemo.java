package io.railgun.engine.plan;

/**
 * A {@link KeyTable}'s lookups memoised by event seq: the last one, and the newest event's (the one
 * being processed: it arrives at several nodes and is evaluated for the reply after the tails
 * looked up older events, which replace the last one). Owned by the task's thread, like its table.
 */
final class SeqMemo {
    private long lastSeq = -1;
    private int lastSlot;
    private long newestSeq = -1;
    private int newestSlot;

    /** The memoised slot of event {@code seq} (at least 0), or -1. */
    int get(long seq) {
        if (seq == lastSeq) {
            return lastSlot;
        }
        return seq == newestSeq ? newestSlot : -1;
    }

    void put(long seq, int slot) {
        lastSeq = seq;
        lastSlot = slot;
        if (seq > newestSeq) {
            newestSeq = seq;
            newestSlot = slot;
        }
    }

    /** Forgets the lookups of a slot whose key is leaving it. */
    void forget(int slot) {
        if (lastSlot == slot) {
            lastSeq = -1;
        }
        if (newestSlot == slot) {
            newestSlot = -1; // a miss for that seq; newestSeq stays, so only newer events replace it
        }
    }
}
