package io.railgun.bench.engine;

import io.railgun.engine.plan.MetricDefinition;
import io.railgun.engine.plan.StatementBinder;
import io.railgun.engine.query.QueryException;
import io.railgun.engine.query.QueryParser;
import io.railgun.engine.reservoir.EventReservoir;
import io.railgun.engine.reservoir.InMemoryReservoir;
import io.railgun.engine.reservoir.disk.DiskReservoir;
import io.railgun.engine.reservoir.disk.DiskReservoirOptions;
import io.railgun.engine.reservoir.disk.ReservoirStats;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.state.InMemoryStateStore;
import io.railgun.engine.state.durable.StateMemory;
import io.railgun.engine.task.TaskOptions;
import io.railgun.engine.task.TaskProcessor;
import io.railgun.engine.task.TaskStorage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The task processors of one {@link EngineBench} run, one per partitioner of the workload's
 * statements, opened as the options say (reservoir in memory or on disk, state in memory or
 * durable), with what the reports read about them. Used by the main (replay) thread.
 */
final class BenchTasks {
    /** The partitioners, in the order of {@link #tasks}. */
    final List<String> partitioners;
    final TaskProcessor[] tasks;
    /** Statements of the workload (each one window). */
    final int windowCount;
    /** The budget shared by every durable task, as on a node; null without one. Closed after the tasks. */
    final StateMemory stateMemory;
    /** The RocksDB directories of durable tasks. */
    final List<Path> stateDirs;
    private final List<DiskReservoir> disks;

    private BenchTasks(List<String> partitioners, TaskProcessor[] tasks, int windowCount, StateMemory stateMemory,
                       List<Path> stateDirs, List<DiskReservoir> disks) {
        this.partitioners = partitioners;
        this.tasks = tasks;
        this.windowCount = windowCount;
        this.stateMemory = stateMemory;
        this.stateDirs = stateDirs;
        this.disks = disks;
    }

    /** Binds the statements and opens their tasks, wiping the data directory first when on disk. */
    static BenchTasks open(EngineBenchOptions o, List<String> statements, StreamDefinition stream)
            throws IOException, QueryException {
        List<String> partitioners = new ArrayList<>();
        Set<String> names = new HashSet<>();
        List<List<MetricDefinition>> bound = new ArrayList<>();
        int windowCount = 0;
        for (String sql : statements) {
            List<MetricDefinition> defs = StatementBinder.bind(stream, QueryParser.parse(sql), names);
            defs.forEach(d -> names.add(d.name()));
            bound.add(defs);
            windowCount++;
            if (!partitioners.contains(defs.getFirst().partitioner())) {
                partitioners.add(defs.getFirst().partitioner());
            }
        }
        if (o.disk() || o.durable()) {
            ProcessProbes.deleteTree(o.dataDir());
        }
        List<TaskProcessor> tasks = new ArrayList<>();
        // as a node: one budget shared by every durable task (closed after them)
        StateMemory stateMemory = o.durable() && o.budget() ? new StateMemory(o.stateMemoryBytes()) : null;
        List<DiskReservoir> disks = new ArrayList<>();
        List<Path> stateDirs = new ArrayList<>();
        DiskReservoirOptions reservoirOptions = DiskReservoirOptions.defaults().withCache(o.cacheChunks(), 1L << 30);
        TaskOptions taskOptions = TaskOptions.defaults().withMinDedupHorizonMs(o.dedupHorizonMs());
        for (String p : partitioners) {
            Path taskDir = o.dataDir().resolve(p + "-0");
            TaskProcessor t;
            if (o.durable()) {
                TaskStorage storage = TaskStorage.in(taskDir)
                        .withReservoir(reservoirOptions)
                        .withState(o.stateOptions(stateMemory))
                        .withCheckpointIntervalMs(o.checkpointIntervalMs());
                t = TaskProcessor.open(stream, taskOptions, storage);
                DiskReservoir d = t.diskReservoir();
                if (d != null) {
                    disks.add(d);
                }
                stateDirs.add(taskDir.resolve("state")); // TaskStorage: directory/state is RocksDB
            } else {
                EventReservoir reservoir;
                if (o.disk()) {
                    DiskReservoir d = DiskReservoir.open(taskDir, reservoirOptions);
                    disks.add(d);
                    reservoir = d;
                } else {
                    reservoir = new InMemoryReservoir();
                }
                t = new TaskProcessor(stream, taskOptions, reservoir, new InMemoryStateStore());
            }
            for (List<MetricDefinition> defs : bound) {
                if (defs.getFirst().partitioner().equals(p)) {
                    t.addMetrics(defs); // durable: takes a checkpoint and waits for it
                }
            }
            tasks.add(t);
        }
        return new BenchTasks(partitioners, tasks.toArray(new TaskProcessor[0]), windowCount, stateMemory, stateDirs,
                disks);
    }

    /** Reservoir cursors over every task. */
    int cursorCount() {
        int cursors = 0;
        for (TaskProcessor t : tasks) {
            cursors += t.stats().cursorCount();
        }
        return cursors;
    }

    /** Events held in the tasks' reservoirs. */
    long retainedEvents() {
        long n = 0;
        for (TaskProcessor t : tasks) {
            n += t.stats().reservoirSize();
        }
        return n;
    }

    /** The disk reservoirs' statistics summed, or null when the events are in memory. */
    ReservoirStats reservoirStats() {
        if (disks.isEmpty()) {
            return null;
        }
        long entries = 0, hits = 0, misses = 0, prefetches = 0, stalls = 0, bytes = 0, cacheBytes = 0, pendingBytes = 0;
        long waits = 0, waitNanos = 0;
        int segments = 0, cached = 0, pending = 0, open = 0;
        for (DiskReservoir d : disks) {
            ReservoirStats s = d.stats();
            entries += s.chunkEntries();
            hits += s.hits();
            misses += s.misses();
            prefetches += s.prefetches();
            stalls += s.stalls();
            bytes += s.bytesOnDisk();
            segments += s.segments();
            cacheBytes += s.bytesInCache();
            cached += s.chunksInCache();
            pending += s.pendingChunks();
            pendingBytes += s.pendingBytes();
            open += s.openEvents();
            waits += s.writeWaits();
            waitNanos += s.writeWaitNanos();
        }
        return new ReservoirStats(entries, hits, misses, prefetches, stalls, bytes, segments, cacheBytes, cached, pending,
                pendingBytes, open, waits, waitNanos);
    }
}
