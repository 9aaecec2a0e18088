package io.railgun.node.cluster;

import io.railgun.node.assignment.CopyRole;
import io.railgun.node.backend.TaskStats;
import io.railgun.node.backend.UnitStats;
import java.util.ArrayList;
import java.util.List;

/**
 * The tasks the processor units run, from the statistics each unit publishes about once a second
 * ({@link UnitStats#taskStats()}): every one is an active copy (units run only actives today).
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
            for (TaskStats t : unit.taskStats()) {
                copies.add(CopyStatus.running(t.stream(), t.partitioner(), t.partition(), CopyRole.ACTIVE, t.lag(),
                        t.checkpointOffset(), t.checkpointAgeMs()));
            }
        }
        return copies;
    }
}
