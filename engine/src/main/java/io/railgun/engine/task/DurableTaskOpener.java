package io.railgun.engine.task;

import io.railgun.engine.reservoir.disk.DiskReservoir;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.state.durable.DurableStateStore;

/**
 * The open path of a durable {@link TaskProcessor} ({@link TaskProcessor#open}): opens the state
 * store in {@code directory/state} and reads its last checkpoint record, restores the on-disk
 * reservoir in {@code directory/reservoir} to that checkpoint's position, builds the task over them
 * and restores its position and statements ({@link TaskProcessor#restore}). When building the task
 * or restoring the checkpoint fails it closes the reservoir and the state store; when reading the
 * record or the reservoir fails, the state store.
 *
 * <p>No state of its own: it runs on the caller's thread, and the task it returns then belongs to
 * one thread like every {@link TaskProcessor}.
 */
final class DurableTaskOpener {
    private DurableTaskOpener() {}

    /** See {@link TaskProcessor#open}. */
    static TaskProcessor open(StreamDefinition stream, TaskOptions options, TaskStorage storage) {
        DurableStateStore state = DurableStateStore.open(storage.directory().resolve("state"), storage.state());
        try {
            byte[] bytes = state.checkpointRecord();
            CheckpointRecord record = bytes == null ? null : CheckpointRecord.decode(bytes);
            DiskReservoir reservoir = DiskReservoir.restore(storage.directory().resolve("reservoir"), storage.reservoir(),
                    record == null ? null : record.reservoir());
            TaskProcessor task;
            try {
                task = new TaskProcessor(stream, options, reservoir, state, state, reservoir, storage.checkpointIntervalMs());
                if (record != null) {
                    task.restore(record);
                }
            } catch (RuntimeException e) {
                reservoir.close();
                throw e;
            }
            return task;
        } catch (RuntimeException e) {
            state.close();
            throw e;
        }
    }
}
