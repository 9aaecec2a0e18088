package io.railgun.engine.reservoir.disk;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.reservoir.ReservoirCursor;
import io.railgun.engine.reservoir.disk.TestRows.Ev;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Executor;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Crash safety: chunks are written, then the last file is torn (truncated at a random byte) or a
 * random byte of a random file is flipped (bit rot). Reopening must detect it (lengths,
 * checksums), cut back to the last valid chunk, and read back exactly the surviving prefix of the
 * events; the writer must then append after the cut, and the next open must read both.
 */
class DiskReservoirCrashPropertyTest {
    private static final Executor DIRECT = Runnable::run;
    private static final DiskReservoirOptions OPTIONS = DiskReservoirOptions.defaults()
            .withChunkTargetBytes(300)
            .withSegmentMaxBytes(1_500)
            .withCache(2, 1 << 20);

    @Property(tries = 60)
    void aTornLastFileIsCutAtItsLastValidChunk(@ForAll @IntRange(min = 0, max = 1 << 30) int where,
                                               @ForAll @IntRange(min = 0, max = 2) int codec) throws IOException {
        check(where, codec, false);
    }

    @Property(tries = 60)
    void aFlippedByteCutsTheReservoirAtItsChunk(@ForAll @IntRange(min = 0, max = 1 << 30) int where,
                                                @ForAll @IntRange(min = 0, max = 2) int codec) throws IOException {
        check(where, codec, true);
    }

    private void check(int where, int codec, boolean flip) throws IOException {
        Path dir = TestRows.tempDir();
        try {
            DiskReservoirOptions options = OPTIONS.withCodec(ChunkCodec.values()[codec]);
            TestRows rows = new TestRows();
            List<Ev> events = write(dir, options, rows, 0, 300, new SplittableRandom(where));
            List<SegmentRecovery.RecoveredChunk> chunks = SegmentRecovery.recover(dir).chunks();
            assertThat(chunks.stream().map(SegmentRecovery.RecoveredChunk::segmentId).distinct().count())
                    .as("several files").isGreaterThan(3);

            long lastSegment = chunks.getLast().segmentId();
            long segment = flip ? chunks.get(where % chunks.size()).segmentId() : lastSegment;
            Path file = dir.resolve(SegmentDescriptor.fileName(segment));
            long size;
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                size = ch.size();
            }
            long p = Math.floorMod(where * 2_654_435_761L, size);
            damage(file, p, flip);

            // what must survive: every chunk before the damaged one
            int survivingEvents = 0;
            boolean atBoundary = !flip && p == SegmentDescriptor.FILE_HEADER_LENGTH;
            for (SegmentRecovery.RecoveredChunk c : chunks) {
                boolean before = c.segmentId() < segment
                        || (c.segmentId() == segment && p >= SegmentDescriptor.FILE_HEADER_LENGTH
                                && c.offset() + c.frameLength() <= p);
                if (!before) {
                    break;
                }
                survivingEvents += c.count();
                atBoundary |= !flip && c.segmentId() == segment && c.offset() + c.frameLength() == p;
            }
            List<Ev> expected = events.subList(0, survivingEvents);

            try (DiskReservoir r = DiskReservoir.open(dir, options, DIRECT, DIRECT)) {
                if (atBoundary) {
                    assertThat(r.recoveryCuts()).as("a cut exactly between chunks leaves a valid file").isEmpty();
                } else {
                    assertThat(r.recoveryCuts()).isNotEmpty();
                }
                assertThat(readAll(r)).isEqualTo(expected);
                PersistedPosition persisted = r.persistedPosition();
                if (expected.isEmpty()) {
                    assertThat(persisted.isEmpty()).isTrue();
                } else {
                    assertThat(persisted.timestamp()).isEqualTo(expected.getLast().ts());
                    assertThat(persisted.seq()).isEqualTo(expected.getLast().seq());
                }
            }
            // the writer appends after the cut; the next open reads old and new
            List<Ev> more = write(dir, options, rows, 1_000, 120, new SplittableRandom(where + 1L));
            List<Ev> all = new ArrayList<>(expected);
            all.addAll(more);
            try (DiskReservoir r = DiskReservoir.open(dir, options, DIRECT, DIRECT)) {
                assertThat(r.recoveryCuts()).isEmpty();
                assertThat(readAll(r)).isEqualTo(all);
            }
        } finally {
            TestRows.deleteRecursively(dir);
        }
    }

    /** Opens, appends {@code n} in-order events after what is there, flushes, closes. */
    private static List<Ev> write(Path dir, DiskReservoirOptions options, TestRows rows, long firstSeq, int n,
                                  SplittableRandom random) {
        List<Ev> written = new ArrayList<>();
        try (DiskReservoir r = DiskReservoir.open(dir, options, DIRECT, DIRECT)) {
            long ts = Math.max(r.watermark(), 0) + 1;
            for (int i = 0; i < n; i++) {
                ts += random.nextInt(3);
                long seq = firstSeq + i;
                var row = rows.row(seq, random.nextInt(30), random.nextInt(10) == 0);
                written.add(Ev.of(ts, seq, row));
                r.insert(ts, seq, row);
            }
            r.advanceWatermark(ts + 1);
            r.flush();
        }
        return written;
    }

    private static List<Ev> readAll(DiskReservoir r) {
        List<Ev> out = new ArrayList<>();
        ReservoirCursor c = r.openCursor(Long.MIN_VALUE);
        c.advanceTo(Long.MAX_VALUE, (t, s, row) -> out.add(Ev.of(t, s, row)));
        c.close();
        return out;
    }

    private static void damage(Path file, long p, boolean flip) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            if (!flip) {
                ch.truncate(p);
                return;
            }
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, p);
            b.put(0, (byte) (b.get(0) ^ 0x5A));
            b.rewind();
            ch.write(b, p);
        }
    }
}
