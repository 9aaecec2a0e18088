package io.railgun.engine.task;

import io.railgun.engine.dedup.DedupIndex;
import io.railgun.engine.event.EventRow;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * An event's id as {@link DedupIds} keys it: the cold tier's tag byte {@link ColdIds#ID}, then the
 * id's bytes (a string's UTF-8 bytes, or a long's 8 bytes, little-endian), in one buffer reused
 * for every event; the hot tier reads it from offset 1. Owned by the task's thread.
 */
final class EventIdKey {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final int idField;
    private final boolean stringId;
    private final String idName;
    private byte[] key = new byte[64];
    private final byte[] longId = new byte[8]; // a long id for a prefetch, which comes between encodings

    EventIdKey(int idField, boolean stringId, String idName) {
        this.idField = idField;
        this.stringId = stringId;
        this.idName = idName;
        key[0] = ColdIds.ID;
    }

    /**
     * Writes the id of {@code row} after the tag byte; returns its length. Read {@link #key()} after
     * this call: it may grow the buffer (an id longer than any encoded before).
     *
     * @throws IllegalArgumentException when the id is null
     */
    int encode(EventRow row) {
        if (row.isNull(idField)) {
            throw new IllegalArgumentException("the event id field '" + idName + "' is null");
        }
        if (stringId) {
            int len = row.stringLength(idField);
            if (key.length < len + 1) {
                key = Arrays.copyOf(key, Math.max(len + 1, key.length * 2));
            }
            System.arraycopy(row.buffer(), row.stringOffset(idField), key, 1, len);
            return len;
        }
        LONG.set(key, 1, row.getSlot(idField));
        return 8;
    }

    /** The tag byte, then the id {@link #encode} wrote. */
    byte[] key() {
        return key;
    }

    /**
     * Notes {@code row}'s id for a prefetch of its lookup in {@code index}, and in {@code cold} when
     * not null, without touching {@link #key()}.
     */
    void prefetch(EventRow row, DedupIndex index, ColdIds cold) {
        if (row.isNull(idField)) {
            return; // (processing refuses the event)
        }
        byte[] bytes;
        int offset;
        int length;
        if (stringId) {
            bytes = row.buffer();
            offset = row.stringOffset(idField);
            length = row.stringLength(idField);
        } else {
            LONG.set(longId, 0, row.getSlot(idField));
            bytes = longId;
            offset = 0;
            length = 8;
        }
        index.prefetch(bytes, offset, length);
        if (cold != null) {
            cold.prefetchContains(bytes, offset, length);
        }
    }
}
