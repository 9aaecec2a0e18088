package io.railgun.node.ops;

import io.railgun.engine.event.EventTime;
import io.railgun.engine.state.durable.StateMemory;
import io.railgun.node.backend.TaskStats;
import io.railgun.node.backend.UnitStats;
import io.railgun.node.frontend.FrontEnd;
import io.railgun.node.http.KafkaIngestion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;

/**
 * The node's own gauges and counters on {@code /metrics} (docs/operations.md): requests in flight,
 * per-unit task, lag, movement, reservoir and state figures, the state memory budget, and bytes on
 * disk. Registered once at start-up by the node; the registry reads them on the scraping thread,
 * from the units' published statistics (never from the units' own state).
 */
public final class NodeGauges {
    private NodeGauges() {}

    public static void register(NodeMetrics metrics, FrontEnd frontEnd, KafkaIngestion ingestion, List<UnitStats> units,
            StateMemory stateMemory, Path dataDir) {
        List<String> unit = List.of("unit");
        metrics.gauge("railgun_frontend_in_flight", "Requests waiting for task replies", frontEnd::inFlight);
        metrics.counter("railgun_ingest_skipped", "Kafka-native ingestion records skipped (never counted), by reason",
                List.of("reason"), () -> Map.of(List.of(EventTime.ERROR_CODE), ingestion.refusedTimestamps()));
        metrics.gauge("railgun_tasks", "Tasks run by each processor unit", unit, () -> perUnit(units, s -> s.tasks()));
        metrics.gauge("railgun_consumer_lag", "Input records not yet read by each unit's tasks", unit,
                () -> perUnit(units, s -> s.lag()));
        metrics.counter("railgun_rebalances", "Assignments received by each unit", unit,
                () -> perUnit(units, s -> s.rebalances()));
        metrics.counter("railgun_promotions", "Replica tasks each unit promoted to active in place", unit,
                () -> perUnit(units, s -> s.promotions()));
        metrics.counter("railgun_demotions", "Active tasks each unit kept as replicas when they moved away", unit,
                () -> perUnit(units, s -> s.demotions()));
        metrics.counter("railgun_task_records", "Input records handled by each unit (events, DDL markers, reads)", unit,
                () -> perUnit(units, s -> s.records()));
        metrics.gauge("railgun_reservoir_events", "Events held in the units' reservoirs", unit,
                () -> perUnit(units, s -> s.reservoirEvents()));
        metrics.gauge("railgun_reservoir_cache_bytes", "Heap bytes of reservoir event data (open regions, chunk caches)",
                unit, () -> perUnit(units, s -> s.reservoirMemoryBytes()));
        metrics.counter("railgun_reservoir_write_wait_seconds", "Seconds the units' tasks waited for their reservoirs'"
                + " writers (the disk, or the writers' CPU, behind the events)", unit,
                () -> perUnitSeconds(units, s -> s.reservoirWriteWaitNanos()));
        metrics.gauge("railgun_state_hot_keys", "Keys held in the units' hot tiers", unit,
                () -> perUnit(units, s -> s.hotKeys()));
        metrics.gauge("railgun_state_buffer_bytes", "State changes held in memory until the next checkpoint", unit,
                () -> perUnit(units, s -> s.stateBufferBytes()));
        metrics.gauge("railgun_state_memory_budget_bytes", "The node's state memory budget (--state-memory)",
                stateMemory::budgetBytes);
        metrics.gauge("railgun_state_rocksdb_bytes", "Off-heap bytes of the tasks' RocksDB in the shared cache: data,"
                + " index and filter blocks, memtables (about 30% of the budget, a soft bound)", stateMemory::rocksDbUsageBytes);
        metrics.gauge("railgun_state_hot_ids_bytes", "Heap bytes of the dedup ids kept in memory by tasks whose horizon is"
                + " longer than their in-memory part (a day, at least the lateness), against their pool, a tenth of the budget (past it,"
                + " a task holding more than an even part moves the ids past that part to RocksDB, then narrows it)",
                () -> stateMemory.hotIdPool().heldBytes());
        Path data = dataDir.toAbsolutePath();
        metrics.gauge("railgun_disk_bytes", "Bytes on disk: the tasks' reservoirs, their state (RocksDB) and the embedded"
                + " broker's log (its index files are preallocated: sparse)", List.of("part"), () -> Map.of(
                        List.of("reservoir"), taskBytes(data.resolve("tasks"), "reservoir"),
                        List.of("state"), taskBytes(data.resolve("tasks"), "state"),
                        List.of("kafka"), directoryBytes(data.resolve("kafka"))));
    }

    /** Every task the units run, as they last published them. */
    public static List<TaskStats> taskStats(List<UnitStats> units) {
        List<TaskStats> all = new ArrayList<>();
        for (UnitStats unit : units) {
            all.addAll(unit.taskStats());
        }
        return all;
    }

    /** {@link #perUnit} of nanoseconds, in seconds. */
    private static Map<List<String>, Double> perUnitSeconds(List<UnitStats> units, ToLongFunction<UnitStats> nanos) {
        Map<List<String>, Double> m = new LinkedHashMap<>();
        perUnit(units, nanos).forEach((unit, n) -> m.put(unit, n / 1e9));
        return m;
    }

    private static Map<List<String>, Long> perUnit(List<UnitStats> units, ToLongFunction<UnitStats> f) {
        Map<List<String>, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < units.size(); i++) {
            m.put(List.of(Integer.toString(i)), f.applyAsLong(units.get(i)));
        }
        return m;
    }

    /** Bytes under {@code tasks/<stream>/<task>/<part>}. */
    private static long taskBytes(Path tasks, String part) {
        if (!Files.isDirectory(tasks)) {
            return 0;
        }
        long sum = 0;
        try (Stream<Path> streams = Files.list(tasks)) {
            for (Path stream : streams.toList()) {
                try (Stream<Path> taskDirs = Files.list(stream)) {
                    for (Path task : taskDirs.toList()) {
                        sum += directoryBytes(task.resolve(part));
                    }
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // a stream deleted meanwhile
        }
        return sum;
    }

    private static long directoryBytes(Path dir) {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0; // deleted meanwhile
                }
            }).sum();
        } catch (IOException | UncheckedIOException e) {
            return 0;
        }
    }
}
