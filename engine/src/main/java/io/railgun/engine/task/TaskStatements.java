package io.railgun.engine.task;

import io.railgun.engine.plan.MetricDefinition;
import io.railgun.engine.plan.StatementBinder;
import io.railgun.engine.plan.TaskPlan;
import io.railgun.engine.query.QueryException;
import io.railgun.engine.query.QueryParser;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.task.CheckpointRecord.StatementEntry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * The statements a task computes, in the order they were added, as its checkpoints record them
 * ({@link CheckpointRecord#statements()}): each with the seq it started at and the names of its
 * metrics still on the task. A restore binds them again to the stream and adds them back to the
 * plan. Only metric changes, checkpoints and restores touch it, never the event path.
 *
 * <p>Task's thread only, like its {@link TaskProcessor}.
 */
final class TaskStatements {
    private final List<StatementEntry> statements = new ArrayList<>();

    /** Records one bound statement whose metrics were added at {@code firstSeq}; nothing when empty. */
    void added(List<MetricDefinition> metrics, long firstSeq, boolean backfill) {
        if (metrics.isEmpty()) {
            return;
        }
        List<String> names = new ArrayList<>();
        for (MetricDefinition m : metrics) {
            names.add(m.name());
        }
        statements.add(new StatementEntry(metrics.getFirst().statement().text(), firstSeq, names, backfill,
                Long.MIN_VALUE, Long.MIN_VALUE));
    }

    /** Forgets a removed metric, and its statement once it has no metric left. */
    void removed(String name) {
        for (int i = 0; i < statements.size(); i++) {
            if (statements.get(i).names().remove(name) && statements.get(i).names().isEmpty()) {
                statements.remove(i);
                break;
            }
        }
    }

    /** The statements as a checkpoint taken now records them: backfills in progress with their position. */
    List<StatementEntry> forCheckpoint(TaskPlan plan) {
        List<StatementEntry> entries = new ArrayList<>();
        for (StatementEntry e : statements) {
            long[] at = e.backfilled() ? plan.backfillPosition(e.names().getFirst()) : null;
            entries.add(at == null ? e : e.withBackfillPosition(at[0], at[1]));
        }
        return entries;
    }

    /**
     * Binds a checkpoint's statements again to {@code stream} and adds their metrics still present
     * to {@code plan}, backfills resuming where the checkpoint left them.
     *
     * @throws IllegalStateException when a statement no longer binds to {@code stream}
     */
    void restore(List<StatementEntry> entries, StreamDefinition stream, TaskPlan plan, long streamTime) {
        for (StatementEntry entry : entries) {
            List<MetricDefinition> defs;
            try {
                defs = StatementBinder.bind(stream, QueryParser.parse(entry.text()), new HashSet<>());
            } catch (QueryException e) {
                throw new IllegalStateException("checkpointed statement no longer binds to stream '" + stream.name()
                        + "': " + e.getMessage(), e);
            }
            List<MetricDefinition> kept = new ArrayList<>();
            for (MetricDefinition d : defs) {
                if (entry.names().contains(d.name())) {
                    kept.add(d);
                }
            }
            if (entry.backfilled()) {
                plan.addBackfilled(kept, entry.firstSeq(), streamTime, entry.backfillHead(), entry.backfillTail(),
                        !entry.backfilling());
            } else {
                plan.add(kept, entry.firstSeq(), streamTime);
            }
            statements.add(new StatementEntry(entry.text(), entry.firstSeq(), new ArrayList<>(entry.names()),
                    entry.backfilled(), Long.MIN_VALUE, Long.MIN_VALUE));
        }
    }
}
