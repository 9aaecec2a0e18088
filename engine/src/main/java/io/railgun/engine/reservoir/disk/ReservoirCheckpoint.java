package io.railgun.engine.reservoir.disk;

import io.railgun.engine.state.StateReader;
import io.railgun.engine.state.StateWriter;
import java.util.concurrent.CompletableFuture;

/**
 * The reservoir's part of a task checkpoint ({@link DiskReservoir#checkpoint()}): the files up to
 * {@code closed}, plus the open region's events, which are kept in the checkpoint itself.
 * {@link DiskReservoir#restore} rebuilds exactly the reservoir the checkpoint saw.
 *
 * @param closed        the last event of the last chunk closed at the checkpoint
 * @param openCount     number of events in {@code openRows}
 * @param openRows      the open region: (timestamp, seq, row bytes) per event, in order
 * @param minPosition   the cursors' least position at the checkpoint (within this run)
 * @param durable       completes when every chunk up to {@code closed} is written and synced
 */
public record ReservoirCheckpoint(PersistedPosition closed, int openCount, byte[] openRows, long minPosition,
                                  CompletableFuture<Void> durable) {

    /** Bytes {@link #writeTo} writes. */
    public long encodedBytes() {
        return 3 * 8 + 4 + 4 + (long) openRows.length;
    }

    /** The part stored in the checkpoint record (not the run-local position and future). */
    public void writeTo(StateWriter out) {
        out.putLong(closed.timestamp()).putLong(closed.seq()).putLong(closed.maxSeq());
        out.putInt(openCount).putBytes(openRows, 0, openRows.length);
    }

    public static ReservoirCheckpoint readFrom(StateReader in) {
        PersistedPosition closed = new PersistedPosition(in.getLong(), in.getLong(), in.getLong());
        int count = in.getInt();
        int len = in.getBytesLength();
        byte[] rows = new byte[len];
        System.arraycopy(in.buffer(), in.position() - len, rows, 0, len);
        return new ReservoirCheckpoint(closed, count, rows, 0, CompletableFuture.completedFuture(null));
    }
}
