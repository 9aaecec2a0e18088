package io.railgun.engine.reservoir.disk;

/**
 * A snapshot of a {@link DiskReservoir}'s chunk traffic and footprint. Counters are totals since
 * open. A chunk lookup is made by a cursor entering a chunk (it needs it now) or by the prefetch
 * of the chunk after it; it is a hit when the chunk is in memory (the cache, or a closed chunk
 * still waiting for its write). A miss by a prefetch starts an asynchronous read (a prefetch); a
 * miss by a cursor is a stall: the task's thread reads and decompresses the chunk itself. So
 * {@code misses = prefetches + stalls}, and {@code 1 - stalls / chunkEntries} is the share of chunk
 * entries served from memory.
 *
 * @param chunkEntries  chunks entered by cursors
 * @param hits          lookups that found the chunk in memory
 * @param misses        lookups that did not
 * @param prefetches    asynchronous chunk reads started
 * @param stalls        synchronous chunk reads on the task's thread
 * @param bytesOnDisk   bytes of the segment files held
 * @param segments      segment files held (with at least one written chunk)
 * @param bytesInCache  heap bytes of the cached chunks
 * @param chunksInCache cached chunks
 * @param pendingChunks closed chunks waiting for their write (held in memory)
 * @param pendingBytes  heap bytes of those
 * @param openEvents    events in the open region (not yet closed into chunks)
 * @param writeWaits    times the task waited for the writer, the pending chunks over their bound
 *                      ({@link DiskReservoirOptions#pendingMaxBytes()})
 * @param writeWaitNanos nanoseconds those waits took in all
 */
public record ReservoirStats(long chunkEntries, long hits, long misses, long prefetches, long stalls,
                             long bytesOnDisk, int segments, long bytesInCache, int chunksInCache,
                             int pendingChunks, long pendingBytes, int openEvents, long writeWaits,
                             long writeWaitNanos) {
    /** Share of chunk entries that did not stall (1 when none). */
    public double memoryHitRate() {
        return chunkEntries == 0 ? 1.0 : 1.0 - (double) stalls / chunkEntries;
    }
}
