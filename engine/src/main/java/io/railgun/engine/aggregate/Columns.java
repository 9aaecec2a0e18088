package io.railgun.engine.aggregate;

import java.util.Arrays;

/** Growth of per-slot primitive state columns (capacity doubles; never shrinks). */
final class Columns {
    private Columns() {}

    static int[] grow(int[] a, int slots) {
        return a.length >= slots ? a : Arrays.copyOf(a, Math.max(slots, a.length * 2));
    }

    static <T> T[] grow(T[] a, int slots) {
        return a.length >= slots ? a : Arrays.copyOf(a, Math.max(slots, a.length * 2));
    }
}
