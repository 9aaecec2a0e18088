package io.railgun.engine.task;

import io.railgun.engine.reservoir.disk.DiskReservoirOptions;
import io.railgun.engine.state.durable.DurableStateOptions;
import java.nio.file.Path;

/**
 * Where and how a durable task keeps its data: {@code directory/reservoir} (the event reservoir's
 * segment files) and {@code directory/state} (RocksDB: key states and the checkpoint record).
 *
 * @param directory            owned by the task; no other task or process may use it
 * @param reservoir            the on-disk reservoir's settings
 * @param state                the durable state store's settings (hot tier, write buffer)
 * @param checkpointIntervalMs time between checkpoints (a full write buffer brings one forward)
 */
public record TaskStorage(Path directory, DiskReservoirOptions reservoir, DurableStateOptions state,
                          long checkpointIntervalMs) {
    public static final long DEFAULT_CHECKPOINT_INTERVAL_MS = 10_000;

    public TaskStorage {
        if (checkpointIntervalMs < 1) {
            throw new IllegalArgumentException("checkpointIntervalMs must be positive, not " + checkpointIntervalMs);
        }
    }

    public static TaskStorage in(Path directory) {
        return new TaskStorage(directory, DiskReservoirOptions.defaults(), DurableStateOptions.defaults(),
                DEFAULT_CHECKPOINT_INTERVAL_MS);
    }

    public TaskStorage withState(DurableStateOptions options) {
        return new TaskStorage(directory, reservoir, options, checkpointIntervalMs);
    }

    public TaskStorage withReservoir(DiskReservoirOptions options) {
        return new TaskStorage(directory, options, state, checkpointIntervalMs);
    }

    public TaskStorage withCheckpointIntervalMs(long ms) {
        return new TaskStorage(directory, reservoir, state, ms);
    }
}
