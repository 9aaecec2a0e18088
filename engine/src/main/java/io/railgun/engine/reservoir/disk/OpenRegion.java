package io.railgun.engine.reservoir.disk;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.event.EventRowDescriptor;
import java.util.Arrays;

/**
 * The events not yet closed into chunks, in (timestamp, arrival) order: parallel primitive columns
 * over rows held in fixed-size blocks. Inserts land at their sorted position (late events are near
 * the end, so the shift is short). Indexes are relative to the first event.
 *
 * <p><b>Row blocks.</b> A row is appended to the current block ({@value #BLOCK_BYTES} bytes; a
 * larger row gets a block of its own). Each block counts its rows; cutting a chunk decrements the
 * counts, and a block whose count reaches zero goes back to a small free list for reuse. Rows are
 * never moved, so the cost of releasing events is proportional to the events released, not to the
 * rows still held (a copying compaction would copy every live row again and again when the region
 * holds many events).
 *
 * <p>The <em>final prefix</em> is the leading events with a timestamp below the watermark: no
 * insert can land among them, so they are ready to be closed. It is tracked incrementally (count,
 * row bytes, first schema change) so that checking for a complete chunk costs O(1) per watermark
 * step. Owned by the task's thread.
 */
final class OpenRegion {
    static final int BLOCK_BYTES = 64 * 1024;
    /** Free blocks kept for reuse beyond which released blocks are dropped. */
    private static final int MAX_FREE_BLOCKS = 64;

    /** Arrays of chunks cut here and released by the reservoir once nothing reads them. */
    final ChunkPool pool = new ChunkPool();
    private long[] timestamps = new long[256];
    private long[] seqs = new long[256];
    private int[] rowOffsets = new int[256];
    private int[] rowLengths = new int[256];
    /** Block slot of each row. */
    private int[] rowBlocks = new int[256];
    private int start;
    private int end;

    /** Block of each slot (null when the slot is free and its block was dropped). */
    private byte[][] blocks = new byte[8][];
    /** Rows held by each slot's block. */
    private int[] blockRows = new int[8];
    private int slotCount;
    /** Free slots (each holding a reusable {@value #BLOCK_BYTES}-byte block or null). */
    private int[] freeSlots = new int[8];
    private int freeCount;
    /** Slot rows are appended to, and the end of its used bytes. */
    private int current = -1;
    private int currentEnd;
    private long blockBytes;
    private long liveBytes;

    private long watermark = Long.MIN_VALUE;
    private int finalCount;
    private long finalBytes;
    /** Relative index of the first final event whose schema differs from its predecessor's, or -1. */
    private int firstBreak = -1;

    int size() {
        return end - start;
    }

    long timestamp(int i) {
        return timestamps[start + i];
    }

    long seq(int i) {
        return seqs[start + i];
    }

    EventRow wrap(EventRow row, int i) {
        int p = start + i;
        return row.wrap(blocks[rowBlocks[p]], rowOffsets[p]);
    }

    /** Row bytes held. */
    long liveBytes() {
        return liveBytes;
    }

    long memoryBytes() {
        return blockBytes + 28L * timestamps.length + 12L * blocks.length;
    }

    /** First relative index whose timestamp is above {@code ts} (= size when none). */
    int upperBound(long ts) {
        int lo = start;
        int hi = end;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (timestamps[mid] <= ts) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo - start;
    }

    /** Inserts after every event with a timestamp at or below {@code ts}; the caller checked ts &gt;= watermark. */
    void insert(long ts, long seq, EventRow row) {
        if (end == timestamps.length) {
            makeRoomForEntry();
        }
        int len = row.length();
        int slot;
        int offset;
        if (len > BLOCK_BYTES) {
            slot = takeSlot(len);
            offset = 0;
        } else {
            if (current < 0 || currentEnd + len > BLOCK_BYTES) {
                // the old current block holds rows (an emptied one restarts at 0): freed with its last row
                current = takeSlot(BLOCK_BYTES);
                currentEnd = 0;
            }
            slot = current;
            offset = currentEnd;
            currentEnd += len;
        }
        System.arraycopy(row.buffer(), row.offset(), blocks[slot], offset, len);
        blockRows[slot]++;
        int i = end;
        while (i > start && timestamps[i - 1] > ts) {
            i--;
        }
        if (i < end) {
            System.arraycopy(timestamps, i, timestamps, i + 1, end - i);
            System.arraycopy(seqs, i, seqs, i + 1, end - i);
            System.arraycopy(rowOffsets, i, rowOffsets, i + 1, end - i);
            System.arraycopy(rowLengths, i, rowLengths, i + 1, end - i);
            System.arraycopy(rowBlocks, i, rowBlocks, i + 1, end - i);
        }
        timestamps[i] = ts;
        seqs[i] = seq;
        rowOffsets[i] = offset;
        rowLengths[i] = len;
        rowBlocks[i] = slot;
        liveBytes += len;
        end++;
    }

    /** Extends the final prefix to every leading event below {@code newWatermark}. */
    void advanceWatermark(long newWatermark) {
        if (newWatermark <= watermark) {
            return;
        }
        watermark = newWatermark;
        int n = size();
        while (finalCount < n && timestamp(finalCount) < newWatermark) {
            if (firstBreak < 0 && finalCount > 0 && schemaId(finalCount) != schemaId(finalCount - 1)) {
                firstBreak = finalCount;
            }
            finalBytes += rowLengths[start + finalCount];
            finalCount++;
        }
    }

    int finalCount() {
        return finalCount;
    }

    /** Whether the final prefix starts with a chunk that can no longer grow: full, or ended by a schema change. */
    boolean hasCompleteChunk(int targetBytes) {
        return finalCount > 0 && (finalBytes >= targetBytes || firstBreak > 0);
    }

    /** Events of the next chunk: leading final events of one schema, up to {@code targetBytes} of rows. */
    int nextChunkLength(int targetBytes) {
        int limit = firstBreak > 0 ? firstBreak : finalCount;
        int k = 0;
        long bytes = 0;
        while (k < limit && bytes < targetBytes) {
            bytes += rowLengths[start + k];
            k++;
        }
        return k;
    }

    /** Serialises the first {@code n} events into a chunk and removes them. */
    Chunk cut(long chunkId, int n) {
        long prevTs = timestamp(0);
        long prevSeq = seq(0);
        long bodyLength = 0;
        long rowBytes = 0;
        for (int i = 0; i < n; i++) {
            int p = start + i;
            bodyLength += ChunkBody.varintLength(timestamps[p] - prevTs)
                    + ChunkBody.varintLength(ChunkBody.zigzag(seqs[p] - prevSeq)) + rowLengths[p];
            rowBytes += rowLengths[p];
            prevTs = timestamps[p];
            prevSeq = seqs[p];
        }
        if (bodyLength > SegmentDescriptor.MAX_BODY_LENGTH) {
            throw new IllegalStateException("chunk body of " + bodyLength + " bytes");
        }
        Chunk.Arrays arrays = pool.take((int) bodyLength, n);
        byte[] body = arrays.body();
        long[] ts = arrays.timestamps();
        long[] sq = arrays.seqs();
        int[] offsets = arrays.rowOffsets();
        prevTs = timestamp(0);
        prevSeq = seq(0);
        long maxSeq = Long.MIN_VALUE;
        int q = 0;
        for (int i = 0; i < n; i++) {
            int p = start + i;
            q = ChunkBody.putVarint(body, q, timestamps[p] - prevTs);
            q = ChunkBody.putVarint(body, q, ChunkBody.zigzag(seqs[p] - prevSeq));
            System.arraycopy(blocks[rowBlocks[p]], rowOffsets[p], body, q, rowLengths[p]);
            offsets[i] = q;
            q += rowLengths[p];
            ts[i] = timestamps[p];
            sq[i] = seqs[p];
            maxSeq = Math.max(maxSeq, seqs[p]);
            prevTs = timestamps[p];
            prevSeq = seqs[p];
        }
        int schemaId = schemaId(0);
        for (int i = 0; i < n; i++) {
            int slot = rowBlocks[start + i];
            if (--blockRows[slot] == 0) {
                releaseSlot(slot);
            }
        }
        start += n;
        liveBytes -= rowBytes;
        finalCount -= n;
        finalBytes -= rowBytes;
        if (firstBreak >= 0) {
            firstBreak -= n;
            if (firstBreak <= 0) {
                firstBreak = findBreak(1);
            }
        }
        if (start == end) {
            start = 0;
            end = 0;
        }
        return new Chunk(chunkId, schemaId, n, ts, sq, offsets, body, (int) bodyLength, maxSeq);
    }

    /** Drops every event (the open region is lost on close by design). */
    void clear() {
        for (int i = start; i < end; i++) {
            int slot = rowBlocks[i];
            if (--blockRows[slot] == 0) {
                releaseSlot(slot);
            }
        }
        start = 0;
        end = 0;
        liveBytes = 0;
        finalCount = 0;
        finalBytes = 0;
        firstBreak = -1;
    }

    private int findBreak(int from) {
        for (int i = Math.max(from, 1); i < finalCount; i++) {
            if (schemaId(i) != schemaId(i - 1)) {
                return i;
            }
        }
        return -1;
    }

    private int schemaId(int i) {
        int p = start + i;
        return (int) SegmentDescriptor.INT.get(blocks[rowBlocks[p]], rowOffsets[p] + EventRowDescriptor.SCHEMA_ID_OFFSET);
    }

    private void makeRoomForEntry() {
        int live = end - start;
        if (live < timestamps.length / 2) {
            System.arraycopy(timestamps, start, timestamps, 0, live);
            System.arraycopy(seqs, start, seqs, 0, live);
            System.arraycopy(rowOffsets, start, rowOffsets, 0, live);
            System.arraycopy(rowLengths, start, rowLengths, 0, live);
            System.arraycopy(rowBlocks, start, rowBlocks, 0, live);
            start = 0;
            end = live;
        } else {
            int n = timestamps.length * 2;
            timestamps = Arrays.copyOf(timestamps, n);
            seqs = Arrays.copyOf(seqs, n);
            rowOffsets = Arrays.copyOf(rowOffsets, n);
            rowLengths = Arrays.copyOf(rowLengths, n);
            rowBlocks = Arrays.copyOf(rowBlocks, n);
        }
    }

    /** A slot with an empty block of at least {@code bytes} (a pooled one when it has the standard size). */
    private int takeSlot(int bytes) {
        int slot;
        if (freeCount > 0) {
            slot = freeSlots[--freeCount];
        } else {
            if (slotCount == blocks.length) {
                blocks = Arrays.copyOf(blocks, slotCount * 2);
                blockRows = Arrays.copyOf(blockRows, slotCount * 2);
                freeSlots = Arrays.copyOf(freeSlots, slotCount * 2);
            }
            slot = slotCount++;
        }
        byte[] b = blocks[slot];
        if (b == null || b.length != bytes) {
            if (b != null) {
                blockBytes -= b.length;
            }
            b = new byte[bytes];
            blocks[slot] = b;
            blockBytes += bytes;
        }
        blockRows[slot] = 0;
        return slot;
    }

    /** A block holds no row any more: reuse it from its start when it is the current one, else free it. */
    private void releaseSlot(int slot) {
        if (slot == current) {
            currentEnd = 0;
            return;
        }
        byte[] b = blocks[slot];
        if (b.length != BLOCK_BYTES || freeCount >= MAX_FREE_BLOCKS) {
            blockBytes -= b.length;
            blocks[slot] = null;
        }
        freeSlots[freeCount++] = slot;
    }
}
