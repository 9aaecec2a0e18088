package io.railgun.engine.local;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.event.EventTime;
import io.railgun.engine.plan.MetricDefinition;
import io.railgun.engine.plan.StatementBinder;
import io.railgun.engine.query.QueryException;
import io.railgun.engine.query.QueryParser;
import io.railgun.engine.query.Statement;
import io.railgun.engine.reply.ReplyMerger;
import io.railgun.engine.reply.StreamReply;
import io.railgun.engine.reply.TaskAnswer;
import io.railgun.engine.reservoir.ReservoirFactory;
import io.railgun.engine.routing.Partitioning;
import io.railgun.engine.schema.Field;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.state.InMemoryStateStore;
import io.railgun.engine.task.Reply;
import io.railgun.engine.task.TaskOptions;
import io.railgun.engine.task.TaskProcessor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One stream run in-process, without Kafka: every task of the stream — one per (partitioner,
 * partition) — lives here, events are routed to one task per partitioner as the front-end routes
 * them over Kafka, and the tasks' replies are merged into one. Used by tests (against the oracle)
 * and by the engine benchmark harness; the node does the same across processes.
 *
 * <p>Merging: the reply is {@code duplicate} when any task found the event a duplicate and
 * {@code droppedLate} when any task dropped it as late; metrics are the union, in creation order.
 * Not thread-safe.
 */
public final class LocalStream implements AutoCloseable {
    private StreamDefinition definition;
    private final Map<String, TaskProcessor[]> tasksByPartitioner = new LinkedHashMap<>();
    private final Map<String, Field> partitionerFields = new LinkedHashMap<>();
    private final LinkedHashMap<String, MetricDefinition> metrics = new LinkedHashMap<>();

    /** A stream whose tasks keep their events and state in memory. */
    public LocalStream(StreamDefinition definition, TaskOptions options) {
        this(definition, options, ReservoirFactory.IN_MEMORY);
    }

    /** A stream whose tasks get their reservoirs from {@code reservoirs}, their state in memory. */
    public LocalStream(StreamDefinition definition, TaskOptions options, ReservoirFactory reservoirs) {
        this(definition, (def, partitioner, partition) -> new TaskProcessor(def, options,
                reservoirs.open(def.name(), partitioner, partition), new InMemoryStateStore()));
    }

    /** Opens (or restores, for durable tasks) the task of one (partitioner, partition) of a stream. */
    @FunctionalInterface
    public interface TaskFactory {
        TaskProcessor open(StreamDefinition definition, String partitioner, int partition);
    }

    /** A stream whose tasks {@code factory} opens (durable ones restore their metrics themselves). */
    public LocalStream(StreamDefinition definition, TaskFactory factory) {
        this.definition = definition;
        for (String p : definition.partitioners()) {
            TaskProcessor[] tasks = new TaskProcessor[definition.partitions()];
            for (int i = 0; i < tasks.length; i++) {
                tasks[i] = factory.open(definition, p, i);
            }
            tasksByPartitioner.put(p, tasks);
            partitionerFields.put(p, definition.schema().field(p));
        }
    }

    public StreamDefinition definition() {
        return definition;
    }

    /**
     * Changes the stream's schema compatibly (nullable fields appended) on every task.
     *
     * @throws IllegalArgumentException when {@code newSchema} changes or removes an existing field
     */
    public void evolve(io.railgun.engine.schema.Schema newSchema) {
        if (!definition.schema().isEvolvedInto(newSchema)) {
            throw new IllegalArgumentException("incompatible schema change: existing fields must keep their names, types and"
                    + " order; only new (nullable) fields may be added at the end");
        }
        definition = definition.withSchema(newSchema);
        for (TaskProcessor[] tasks : tasksByPartitioner.values()) {
            for (TaskProcessor t : tasks) {
                t.updateStream(definition);
            }
        }
    }

    /** Parses, checks and adds a statement's metrics to every task of its partitioner; all or nothing. */
    public List<String> addStatement(String sql) throws QueryException {
        return addStatement(sql, false);
    }

    /**
     * Adds a statement's metrics; with {@code backfill} they are first computed from the events the
     * tasks hold (see {@link TaskProcessor#addMetrics(List, boolean)}).
     */
    public List<String> addStatement(String sql, boolean backfill) throws QueryException {
        Statement st = QueryParser.parse(sql);
        List<MetricDefinition> defs = StatementBinder.bind(definition, st, metrics.keySet());
        for (TaskProcessor t : tasksByPartitioner.get(defs.getFirst().partitioner())) {
            t.addMetrics(defs, backfill);
        }
        List<String> names = new ArrayList<>();
        for (MetricDefinition d : defs) {
            metrics.put(d.name(), d);
            names.add(d.name());
        }
        return names;
    }

    public boolean removeMetric(String name) {
        MetricDefinition d = metrics.remove(name);
        if (d == null) {
            return false;
        }
        for (TaskProcessor t : tasksByPartitioner.get(d.partitioner())) {
            t.removeMetric(name);
        }
        return true;
    }

    /** The metrics of the stream in creation order. */
    public Map<String, MetricDefinition> metrics() {
        return metrics;
    }

    /**
     * Sends an event to one task per partitioner and merges their replies ({@link ReplyMerger}).
     *
     * @throws EventTime.TimestampOutOfRangeException when its timestamp is outside {@link EventTime}'s
     *                                                range: refused before any task counts it
     */
    public StreamReply process(EventRow row) {
        Field timestampField = definition.timestampField() == null ? null : definition.schema().field(definition.timestampField());
        if (timestampField != null && !row.isNull(timestampField.index())
                && !EventTime.accepted(row.getLong(timestampField.index()))) {
            throw new EventTime.TimestampOutOfRangeException(timestampField.name(), row.getLong(timestampField.index()));
        }
        ReplyMerger merger = new ReplyMerger(tasksByPartitioner.size());
        for (Map.Entry<String, TaskProcessor[]> e : tasksByPartitioner.entrySet()) {
            TaskProcessor[] tasks = e.getValue();
            Reply r = tasks[partitionOf(row, partitionerFields.get(e.getKey()), tasks.length)].process(row);
            merger.add(TaskAnswer.Event.of(r));
        }
        Field idField = definition.schema().field(definition.eventIdField());
        return merger.reply(idText(row, idField), metrics.keySet());
    }

    /** Point read: the metric's value for the key in {@code keyRow}, at its task's stream time. */
    public Object read(String metric, EventRow keyRow) {
        MetricDefinition d = metrics.get(metric);
        if (d == null) {
            throw new IllegalArgumentException("no metric '" + metric + "' on stream '" + definition.name() + "'");
        }
        TaskProcessor[] tasks = tasksByPartitioner.get(d.partitioner());
        return tasks[partitionOf(keyRow, partitionerFields.get(d.partitioner()), tasks.length)].read(metric, keyRow);
    }

    /** The task of (partitioner, partition). */
    public TaskProcessor task(String partitioner, int partition) {
        return tasksByPartitioner.get(partitioner)[partition];
    }

    /** Puts a task in place of the one of (partitioner, partition), e.g. restored after a crash. */
    public void replaceTask(String partitioner, int partition, TaskProcessor task) {
        tasksByPartitioner.get(partitioner)[partition] = task;
    }

    /** The task of a partitioner that holds the metrics for {@code row}'s key. */
    public TaskProcessor task(String partitioner, EventRow row) {
        TaskProcessor[] tasks = tasksByPartitioner.get(partitioner);
        return tasks[partitionOf(row, partitionerFields.get(partitioner), tasks.length)];
    }

    public static int partitionOf(EventRow row, Field partitioner, int partitions) {
        return Partitioning.partitionOf(row, partitioner, partitions);
    }

    /** The event id of {@code row} as the replies show it (numbers and booleans as their text), or null. */
    public static String idText(EventRow row, Field idField) {
        int f = idField.index();
        if (row.isNull(f)) {
            return null;
        }
        return switch (idField.type()) {
            case STRING -> row.getString(f);
            case LONG, TIMESTAMP -> Long.toString(row.getLong(f));
            case DOUBLE -> Double.toString(row.getDouble(f));
            case BOOLEAN -> Boolean.toString(row.getBoolean(f));
        };
    }

    @Override
    public void close() {
        for (TaskProcessor[] tasks : tasksByPartitioner.values()) {
            for (TaskProcessor t : tasks) {
                t.close();
            }
        }
    }
}
