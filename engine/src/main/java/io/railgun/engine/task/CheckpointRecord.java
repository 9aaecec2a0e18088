package io.railgun.engine.task;

import io.railgun.engine.reservoir.disk.ReservoirCheckpoint;
import io.railgun.engine.state.StateReader;
import io.railgun.engine.state.StateWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What a task checkpoint records besides the keys' state, stored in the same atomic RocksDB batch:
 * where to resume the input, the task's clocks, the reservoir's part, and the task's statements
 * with the seq each started at (operators are named after it, so restored state finds them).
 * Format: version 1, then the fields in order (little-endian, strings as UTF-8 byte strings).
 *
 * @param nextOffset the input offset of the first event not reflected in the checkpoint
 * @param nextSeq    the seq the next counted event gets
 * @param streamTime the stream time, or Long.MIN_VALUE before the first event
 * @param reservoir  the reservoir's part
 * @param statements the statements whose metrics the task computes, in the order they were added
 */
record CheckpointRecord(long nextOffset, long nextSeq, long streamTime, ReservoirCheckpoint reservoir,
                        List<StatementEntry> statements) {
    private static final int VERSION = 1;
    /** Version, next offset, next seq, stream time. */
    private static final int HEADER_BYTES = 4 + 8 + 8 + 8;

    /**
     * A statement added to the task.
     *
     * @param text         its text, bound again against the stream on restore
     * @param firstSeq     the seq of the first event its metrics counted, or, backfilled, the seq
     *                     at which they were added
     * @param names        its metrics still present on this task
     * @param backfilled   its metrics were computed from the history first
     * @param backfillHead while the backfill runs (at the checkpoint): its head's boundary, else Long.MIN_VALUE
     * @param backfillTail while the backfill runs: its tail's boundary
     */
    record StatementEntry(String text, long firstSeq, List<String> names, boolean backfilled, long backfillHead,
                          long backfillTail) {
        StatementEntry(String text, long firstSeq, List<String> names) {
            this(text, firstSeq, names, false, Long.MIN_VALUE, Long.MIN_VALUE);
        }

        boolean backfilling() {
            return backfilled && backfillHead != Long.MIN_VALUE;
        }

        StatementEntry withBackfillPosition(long head, long tail) {
            return new StatementEntry(text, firstSeq, names, backfilled, head, tail);
        }
    }

    byte[] encode() {
        // the statements first, small; then one presized buffer for everything: the reservoir's open
        // rows are megabytes under load, and a doubling buffer plus a final copy would allocate them
        // about four times over
        StateWriter tail = new StateWriter();
        tail.putInt(statements.size());
        for (StatementEntry s : statements) {
            putString(tail, s.text());
            tail.putLong(s.firstSeq()).putInt(s.backfilled() ? 1 : 0).putLong(s.backfillHead()).putLong(s.backfillTail());
            tail.putInt(s.names().size());
            for (String n : s.names()) {
                putString(tail, n);
            }
        }
        StateWriter out = new StateWriter(Math.toIntExact(HEADER_BYTES + reservoir.encodedBytes() + (long) tail.length()));
        out.putInt(VERSION).putLong(nextOffset).putLong(nextSeq).putLong(streamTime);
        reservoir.writeTo(out);
        out.putRaw(tail.buffer(), 0, tail.length());
        return out.toArray();
    }

    static CheckpointRecord decode(byte[] bytes) {
        StateReader in = new StateReader().reset(bytes, 0, bytes.length);
        int version = in.getInt();
        if (version != VERSION) {
            throw new IllegalStateException("checkpoint record version " + version + " is not readable by this build (reads "
                    + VERSION + ")");
        }
        long nextOffset = in.getLong();
        long nextSeq = in.getLong();
        long streamTime = in.getLong();
        ReservoirCheckpoint reservoir = ReservoirCheckpoint.readFrom(in);
        int n = in.getInt();
        List<StatementEntry> statements = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String text = getString(in);
            long firstSeq = in.getLong();
            boolean backfilled = in.getInt() != 0;
            long head = in.getLong();
            long tail = in.getLong();
            int names = in.getInt();
            List<String> list = new ArrayList<>();
            for (int k = 0; k < names; k++) {
                list.add(getString(in));
            }
            statements.add(new StatementEntry(text, firstSeq, list, backfilled, head, tail));
        }
        return new CheckpointRecord(nextOffset, nextSeq, streamTime, reservoir, statements);
    }

    private static void putString(StateWriter out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.putBytes(b, 0, b.length);
    }

    private static String getString(StateReader in) {
        int len = in.getBytesLength();
        return new String(in.buffer(), in.position() - len, len, StandardCharsets.UTF_8);
    }
}
