/**
 * The on-disk event reservoir (paper §4.1.1): {@link io.railgun.engine.reservoir.disk.DiskReservoir}
 * keeps a task's events in compressed, checksummed chunks appended to segment files, so a window of
 * seven days costs disk, not heap.
 *
 * <p>Where things are: the file format and the codec measurements in
 * {@link io.railgun.engine.reservoir.disk.SegmentDescriptor}; events not yet final in
 * {@code OpenRegion}; the index from positions and timestamps to chunks in {@code ChunkIndex} and
 * {@code SegmentTable}; sealing final events into chunks and following their writes in
 * {@code ChunkSealer}; the background writer in {@code SegmentWriter}; cursors in
 * {@code DiskCursor}, and the chunks they read (cache pins, prefetch in {@code ChunkFetch}, stalls)
 * in {@code CursorReads} with the shared cache in {@code ChunkCache}; deleting passed files in
 * {@code SegmentTrimmer}; the open region as a checkpoint keeps it in {@code OpenRegionRows};
 * open-time checks and cut-back in {@code SegmentRecovery}.
 *
 * <p>Threads: the task's thread owns every structure; the writer and reader executors only
 * receive immutable chunks and return results through lock-free queues and volatile fields.
 */
package io.railgun.engine.reservoir.disk;
