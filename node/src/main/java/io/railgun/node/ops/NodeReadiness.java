package io.railgun.node.ops;

import io.railgun.node.backend.TaskStats;
import io.railgun.node.backend.UnitStats;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The node's {@link Readiness}, read from what its processor units and its control-topic reader
 * publish. The node is ready when:
 * <ul>
 *   <li>the catalog is caught up: no control record written but not yet applied;</li>
 *   <li>every processor unit has joined the task group (received its first assignment after start);</li>
 *   <li>every partition assigned to a unit is run by a task (none left paused because its stream is
 *       not in the catalog yet);</li>
 *   <li>no task is replaying its input after being opened, and every task's consumer lag is known
 *       and at most {@link #maxLagPerTask} records.</li>
 * </ul>
 * The figures are those the units last published (about once a second and at each rebalance), so a
 * change shows within about a second.
 *
 * <p>Thread-safe: {@link #check} may be called from any thread; it reads volatile snapshots only.
 */
public final class NodeReadiness implements Readiness {
    /** The default bound of a caught-up task's lag: the records it may still have to read. */
    public static final long DEFAULT_MAX_LAG_PER_TASK = 1_000;

    private final List<UnitStats> units;
    private final LongSupplier catalogLag;
    private final long maxLagPerTask;

    /**
     * @param units         the node's processor units' published figures
     * @param catalogLag    control records not yet applied to the catalog (negative when unknown: caught up at start)
     * @param maxLagPerTask the lag a task may have and still count as caught up
     */
    public NodeReadiness(List<UnitStats> units, LongSupplier catalogLag, long maxLagPerTask) {
        this.units = List.copyOf(units);
        this.catalogLag = catalogLag;
        this.maxLagPerTask = maxLagPerTask;
    }

    @Override
    public ReadinessReport check() {
        List<UnitState> states = new ArrayList<>(units.size());
        for (UnitStats unit : units) {
            states.add(new UnitState(unit.joined(), unit.unserved(), unit.taskStats()));
        }
        return check(catalogLag.getAsLong(), states, maxLagPerTask);
    }

    /** What readiness needs of one processor unit, read once per check. */
    record UnitState(boolean joined, int unserved, List<TaskStats> tasks) {}

    /** The rules of the class comment over figures read once. */
    static ReadinessReport check(long controlLag, List<UnitState> units, long maxLagPerTask) {
        List<String> reasons = new ArrayList<>();
        int tasks = 0;
        if (controlLag > 0) {
            reasons.add("catalog: " + controlLag + " control record(s) not yet applied");
        }
        for (int i = 0; i < units.size(); i++) {
            UnitState unit = units.get(i);
            if (!unit.joined()) {
                reasons.add("unit " + i + ": joining the task group (no assignment yet)");
            }
            if (unit.unserved() > 0) {
                reasons.add("unit " + i + ": " + unit.unserved() + " assigned partition(s) not run (their stream is not"
                        + " in the catalog yet)");
            }
            for (TaskStats t : unit.tasks()) {
                tasks++;
                String reason = taskReason(t, maxLagPerTask);
                if (reason != null) {
                    reasons.add(reason);
                }
            }
        }
        if (reasons.isEmpty()) {
            return ReadinessReport.ready(tasks);
        }
        if (reasons.size() > ReadinessReport.MAX_REASONS) {
            int more = reasons.size() - ReadinessReport.MAX_REASONS;
            reasons = new ArrayList<>(reasons.subList(0, ReadinessReport.MAX_REASONS));
            reasons.add("... and " + more + " more");
        }
        return new ReadinessReport(false, tasks, reasons);
    }

    private static String taskReason(TaskStats t, long maxLagPerTask) {
        if (t.replayLeft() > 0) {
            return "task " + t.name() + ": replaying its input, " + t.replayLeft() + " record(s) left";
        }
        if (t.lag() < 0) {
            return "task " + t.name() + ": lag not known yet (just opened)";
        }
        if (t.lag() > maxLagPerTask) {
            return "task " + t.name() + ": " + t.lag() + " record(s) behind its input (caught up means at most "
                    + maxLagPerTask + ")";
        }
        return null;
    }
}
