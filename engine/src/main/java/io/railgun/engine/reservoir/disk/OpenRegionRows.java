package io.railgun.engine.reservoir.disk;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.state.StateReader;
import io.railgun.engine.state.StateWriter;

/**
 * The open region's events as a checkpoint keeps them ({@link ReservoirCheckpoint#openRows()}):
 * per event, in the region's order, its timestamp (8 bytes), its seq (8 bytes) and its row as a
 * length-prefixed byte string (4-byte length, then the row's bytes), little-endian as
 * {@link StateWriter} writes them. The count is kept beside them ({@link ReservoirCheckpoint#openCount()}).
 *
 * <p>Stateless; called on the task's thread, when a checkpoint is taken and when one is restored.
 */
final class OpenRegionRows {
    /** Bytes of a checkpointed open-region event besides its row: timestamp, seq, length prefix. */
    private static final int OPEN_ROW_OVERHEAD_BYTES = 8 + 8 + 4;

    private OpenRegionRows() {}

    /** A copy of the open region's events. */
    static byte[] encode(OpenRegion open) {
        int n = open.size();
        // presized (timestamp, seq, length prefix, row): the open region can hold megabytes, which a
        // doubling buffer would allocate about three times over, as humongous arrays, every checkpoint
        StateWriter rows = new StateWriter(Math.toIntExact(open.liveBytes() + OPEN_ROW_OVERHEAD_BYTES * (long) n));
        EventRow row = new EventRow();
        for (int i = 0; i < n; i++) {
            open.wrap(row, i);
            rows.putLong(open.timestamp(i)).putLong(open.seq(i)).putBytes(row.buffer(), row.offset(), row.length());
        }
        return rows.toArray();
    }

    /** Inserts a checkpoint's open-region events again. */
    static void restore(OpenRegion open, ReservoirCheckpoint checkpoint) {
        StateReader in = new StateReader().reset(checkpoint.openRows(), 0, checkpoint.openRows().length);
        EventRow row = new EventRow();
        for (int i = 0; i < checkpoint.openCount(); i++) {
            long ts = in.getLong();
            long seq = in.getLong();
            int len = in.getBytesLength();
            row.wrap(in.buffer(), in.position() - len);
            open.insert(ts, seq, row);
        }
    }
}
