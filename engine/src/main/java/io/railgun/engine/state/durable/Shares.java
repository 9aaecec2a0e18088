package io.railgun.engine.state.durable;

import java.util.Arrays;

/**
 * Splits an amount among claimants by what each wants (water-filling, max-min fair): in order of
 * their wants, a claimant wanting less than an equal part of what is left gets its want, and
 * those from the first that wants more get equal parts of the rest. So no claimant gets less than
 * an equal part unless it wants less, and nothing is left while one wants more; when every want
 * is met, the rest is shared equally. Used for the hot tier twice: among a node's tasks
 * ({@link StateMemory.Lease#hotBytes()}) and among a task's key tables.
 */
final class Shares {
    private Shares() {}

    /**
     * @param total  what there is to split, at least 0
     * @param wanted each claimant's want, at least 0 (read, not changed)
     * @return each claimant's part, in the same order; they add up to {@code total} less under one
     *         unit per claimant (parts are rounded down)
     */
    static long[] split(long total, long[] wanted) {
        int n = wanted.length;
        long[] parts = new long[n];
        if (n == 0) {
            return parts;
        }
        Integer[] byWant = new Integer[n];
        for (int i = 0; i < n; i++) {
            byWant[i] = i;
        }
        Arrays.sort(byWant, (a, b) -> Long.compare(wanted[a], wanted[b]));
        long left = total;
        for (int k = 0; k < n; k++) {
            int t = byWant[k];
            parts[t] = Math.min(wanted[t], left / (n - k));
            left -= parts[t];
        }
        for (int t = 0; t < n; t++) {
            parts[t] += left / n;
        }
        return parts;
    }
}
