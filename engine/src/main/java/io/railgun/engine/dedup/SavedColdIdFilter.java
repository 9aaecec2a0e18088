package io.railgun.engine.dedup;

import io.railgun.engine.state.ColdKeys;
import io.railgun.engine.state.LayeredBloomFilter;
import io.railgun.engine.state.StateReader;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A {@link ColdIdFilter} in a checkpoint, through the cold tier's own {@link ColdKeys} (so in the
 * same atomic batch as the ids): at each checkpoint the generations changed since the last one
 * (the newest whole: its share of the filter goes through the write buffers), deletions of those
 * dropped, and a directory; read back at a restore.
 *
 * <p>Keys: tag 2 for the directory, tag 3 and the generation's number (8 bytes) for a generation
 * (the ids' keys have tag 1, {@code DedupIds}'s mark tag 0). The directory: format (int), span,
 * completeAfter, the checkpoint's spill mark, count (int), then the generations' numbers, ascending.
 *
 * <p><b>Trust.</b> A saved filter is used only when the checkpoint was taken by a version that
 * saves it (the caller says so: {@code DedupIds}' mark record carries the forget boundary too) and
 * its directory carries that checkpoint's spill mark. Otherwise (a version without the filter took
 * checkpoints since, and may have added ids to the cold tier; a directory of an unknown format or
 * corrupt) the restore gets a new filter that says "maybe" until the ids spilled up to the mark are
 * forgotten, and the saved generations are deleted at the next save.
 */
public final class SavedColdIdFilter {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final byte[] DIRECTORY_KEY = {2};
    private static final byte GENERATION_TAG = 3;
    private static final int FORMAT = 2; // (1: a development layout without the mark)
    private static final int HEAD = 32;

    private SavedColdIdFilter() {
    }

    /**
     * Puts the generations of {@code filter} changed since the last save, deletions of those
     * dropped, and the directory into {@code cold}'s changes (so into the checkpoint being begun,
     * whose spill mark is {@code mark}).
     */
    static void save(ColdIdFilter filter, ColdKeys cold, long mark) {
        byte[] key = new byte[9]; // (once a checkpoint)
        key[0] = GENERATION_TAG;
        for (int i = 0; i < filter.droppedCount(); i++) {
            LONG.set(key, 1, filter.dropped(i));
            cold.delete(key, 0, 9);
        }
        filter.clearDropped();
        int count = filter.generations();
        for (int i = 0; i < count; i++) {
            if (filter.takeDirty(i)) {
                LayeredBloomFilter g = filter.generation(i);
                int n = g.serializedBytes();
                byte[] out = filter.saveBuffer(n);
                g.writeTo(out, 0);
                LONG.set(key, 1, filter.number(i));
                cold.store(key, 0, 9, out, 0, n);
            }
        }
        byte[] dir = filter.saveBuffer(HEAD + 8 * count);
        INT.set(dir, 0, FORMAT);
        LONG.set(dir, 4, filter.span());
        LONG.set(dir, 12, filter.completeAfter());
        LONG.set(dir, 20, mark);
        INT.set(dir, 28, count);
        for (int i = 0; i < count; i++) {
            LONG.set(dir, HEAD + 8 * i, filter.number(i));
        }
        cold.store(DIRECTORY_KEY, 0, 1, dir, 0, HEAD + 8 * count);
    }

    /**
     * The filter of a restored cold tier, whose checkpoint's spill mark is {@code mark}: the saved
     * one when {@code trusted} (the checkpoint was taken by a version that saves it) and its
     * directory is that checkpoint's and readable; else a new one that says "maybe" until the ids
     * up to the mark are forgotten. A saved one not suiting the tier's width is replaced the same
     * way. For an inactive tier: a cleared one (so that the next save deletes what was saved), or
     * null when nothing was.
     */
    public static ColdIdFilter restore(ColdKeys cold, long mark, boolean trusted, boolean active, long widthMs) {
        StateReader r = new StateReader();
        long[] numbers = directory(cold, r);
        ColdIdFilter saved = null;
        if (numbers != null && trusted && savedMark(r) == mark) {
            saved = generations(cold, r, numbers);
        }
        if (saved == null) {
            if (!active && numbers == null) {
                return null;
            }
            ColdIdFilter f = ColdIdFilter.forWidth(widthMs, mark);
            if (numbers != null) {
                f.dropSaved(numbers);
            }
            if (!active) {
                f.clear();
            }
            return f;
        }
        if (!active) {
            saved.clear();
            return saved;
        }
        return saved.suits(widthMs) ? saved : ColdIdFilter.replacing(saved, widthMs, mark);
    }

    /**
     * The saved generations' numbers (the directory left in {@code r}'s buffer), or null when there
     * is no directory or it is of an unknown format or corrupt.
     */
    private static long[] directory(ColdKeys cold, StateReader r) {
        if (!cold.load(DIRECTORY_KEY, 0, 1, r) || r.remaining() < HEAD) {
            return null;
        }
        byte[] b = r.buffer();
        int at = r.position();
        int count = (int) INT.get(b, at + 28);
        if ((int) INT.get(b, at) != FORMAT || (long) LONG.get(b, at + 4) < 1 || count < 0
                || count > ColdIdFilter.MAX_GENERATIONS || r.remaining() < HEAD + 8 * count) {
            return null;
        }
        long[] numbers = new long[count];
        for (int i = 0; i < count; i++) {
            numbers[i] = (long) LONG.get(b, at + HEAD + 8 * i);
            if (i > 0 && numbers[i] <= numbers[i - 1]) {
                return null;
            }
        }
        return numbers;
    }

    private static long savedMark(StateReader directory) {
        return (long) LONG.get(directory.buffer(), directory.position() + 20);
    }

    /** The saved filter whose directory is in {@code r}, or null when a generation is missing or corrupt. */
    private static ColdIdFilter generations(ColdKeys cold, StateReader r, long[] numbers) {
        byte[] b = r.buffer();
        int at = r.position();
        ColdIdFilter f = ColdIdFilter.withSpan((long) LONG.get(b, at + 4), (long) LONG.get(b, at + 12));
        byte[] key = new byte[9];
        key[0] = GENERATION_TAG;
        for (long g : numbers) {
            LONG.set(key, 1, g);
            if (!cold.load(key, 0, 9, r)) {
                return null;
            }
            try {
                f.addSaved(g, LayeredBloomFilter.readFrom(r.buffer(), r.position(), r.remaining()));
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
        return f;
    }
}
