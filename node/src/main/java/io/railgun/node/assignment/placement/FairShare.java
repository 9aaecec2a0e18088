package io.railgun.node.assignment.placement;

/**
 * How many copies each member may take in the fair pass of one plan (seed 000 §4.2's per-processor
 * budget, reset at every rebalance): the "water level" {@code L} is the smallest count such that
 * {@code sum(min(budget_i, L)) >= demand}. A member whose advertised budget is below {@code L} may
 * take its budget; the others may take {@code L - 1}, and just enough of them {@code L} to cover the
 * demand exactly (the first to reach {@code L} take those slots). With equal budgets this is Kafka's
 * sticky balance: every member ends with the floor or the ceiling of {@code demand / members}.
 *
 * <p>When the budgets cannot cover the demand, every member may take its whole budget and no more.
 *
 * <p>Not thread-safe: one instance per plan, used by the thread computing it.
 */
final class FairShare {
    private final int[] budgets;
    private final int level;
    private int ceilingSlots;

    /** @param budgets each member's advertised budget (negative counts as 0) */
    FairShare(int[] budgets, long demand) {
        this.budgets = budgets.clone();
        long total = 0;
        for (int i = 0; i < this.budgets.length; i++) {
            this.budgets[i] = Math.max(0, this.budgets[i]);
            total += Math.min(this.budgets[i], demand);
        }
        if (demand <= 0) {
            level = 0;
            ceilingSlots = 0;
        } else if (total <= demand) {
            level = Integer.MAX_VALUE;
            ceilingSlots = 0;
        } else {
            long lo = 1;
            long hi = demand;
            while (lo < hi) {
                long mid = (lo + hi) >>> 1;
                if (capacity(mid) >= demand) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            level = (int) lo;
            int atLevel = 0;
            for (int b : this.budgets) {
                if (b >= level) {
                    atLevel++;
                }
            }
            // capacity(level - 1) < demand, so fewer than atLevel of the members at the level are surplus
            ceilingSlots = atLevel - (int) (capacity(level) - demand);
        }
    }

    private long capacity(long lvl) {
        long sum = 0;
        for (int b : budgets) {
            sum += Math.min(b, lvl);
        }
        return sum;
    }

    /** Whether member {@code m}, holding {@code load} copies counted by this share, may take one more. */
    boolean hasRoom(int m, int load) {
        int b = budgets[m];
        if (load >= b) {
            return false;
        }
        if (level == Integer.MAX_VALUE || b < level) {
            return true;
        }
        return load < level - 1 || (load == level - 1 && ceilingSlots > 0);
    }

    /** Records that member {@code m} now holds {@code load} copies counted by this share. */
    void took(int m, int load) {
        if (level != Integer.MAX_VALUE && budgets[m] >= level && load == level) {
            ceilingSlots--;
        }
    }

    /** Whether member {@code m}, holding {@code load} copies, is under its advertised budget. */
    boolean underBudget(int m, int load) {
        return load < budgets[m];
    }
}
