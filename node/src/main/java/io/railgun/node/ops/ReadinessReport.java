package io.railgun.node.ops;

import java.util.List;

/**
 * The answer of one readiness check: ready or not, the tasks the node runs, and why it is not ready
 * (empty when it is). Immutable.
 *
 * @param ready   true when every task the node owns is open and caught up
 * @param tasks   tasks the node's processor units run
 * @param reasons what is not ready yet, one line each, at most {@link #MAX_REASONS} (then a last line
 *                says how many more there are)
 */
public record ReadinessReport(boolean ready, int tasks, List<String> reasons) {
    /** Lines of {@link #reasons} given at most. */
    public static final int MAX_REASONS = 20;

    public ReadinessReport {
        reasons = List.copyOf(reasons);
    }

    public static ReadinessReport ready(int tasks) {
        return new ReadinessReport(true, tasks, List.of());
    }
}
