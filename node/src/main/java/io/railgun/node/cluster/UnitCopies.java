package io.railgun.node.cluster;

import io.railgun.node.assignment.CopyRole;
import io.railgun.node.backend.TaskStats;
import io.railgun.node.backend.UnitStats;
import java.util.ArrayList;
import java.util.List;

/**
 * The tasks the processor units run, from the statistics each unit publishes about once a second
 * ({@link UnitStats#taskStats()}: active copies; {@link UnitStats#replicaStats()}: replicas).
 * Thread-safe: reads the units' immutable snapshots.
 */
public final class UnitCopies implements LocalCopies {
    private final List<UnitStats> units;

    public UnitCopies(List<UnitStats> units) {
        this.units = List.copyOf(units);
    }

    @Override
    public List<CopyStatus> copies() {
        List<CopyStatus> copies = new ArrayList<>();
        for (UnitStats unit : units) {
            add(copies, unit.taskStats(), CopyRole.ACTIVE);
            add(copies, unit.replicaStats(), CopyRole.REPLICA);
        }
        return copies;
    }

    private static void add(List<CopyStatus> copies, List<TaskStats> tasks, CopyRole role) {
        for (TaskStats t : tasks) {
            copies.add(CopyStatus.running(t.stream(), t.partitioner(), t.partition(), role, t.lag(), t.checkpointOffset(),
                    t.checkpointAgeMs()));
        }
    }
}
