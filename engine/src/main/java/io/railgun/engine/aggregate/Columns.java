package io.railgun.engine.aggregate;

import java.util.Arrays;

/**
 * Growth of per-slot state columns to the key table's slots (which double, or stop at a hot
 * tier's limit: not past them, so a limit between two powers of two is not paid at the next one).
 * Never shrinks.
 */
final class Columns {
    private Columns() {}

    static int[] grow(int[] a, int slots) {
        return a.length >= slots ? a : Arrays.copyOf(a, slots);
    }

    static <T> T[] grow(T[] a, int slots) {
        return a.length >= slots ? a : Arrays.copyOf(a, slots);
    }
}
