package io.railgun.engine.reply;

import io.railgun.engine.task.ReplyStatus;
import java.util.HashMap;
import java.util.Map;

/**
 * Merges the answers of the tasks an event went to (one per partitioner of its stream) into the
 * one reply the client gets (SPEC §3.3): {@code duplicate} when any task had already counted the
 * event id, {@code droppedLate} when any task dropped it as late, and the metrics the union of the
 * tasks', in the stream's creation order (a name two answers share takes the later answer's value).
 * The one merger of the engine's local stream and the node's front-end.
 *
 * <p>No hash table per event: the answers' arrays are kept as they come and matched against the
 * creation order at the end. Tasks answer in creation order, so only an answer's first unmerged
 * name can be the current one: a pass over the order costs one comparison per answer and name, and
 * a single answer is the reply's metrics as it is. Answers in another order (none are) are merged
 * through a map.
 *
 * <p>Not thread-safe: the caller serialises {@link #add} when answers come from several threads.
 */
public final class ReplyMerger {
    private int missing;
    private boolean duplicate;
    private boolean droppedLate;
    private final String[][] names;
    private final Object[][] values;
    private int answers;

    /** A merger waiting for {@code parts} answers. */
    public ReplyMerger(int parts) {
        this.missing = parts;
        this.names = new String[parts][];
        this.values = new Object[parts][];
    }

    /** Adds one task's answer; true when it was the last one expected. */
    public boolean add(TaskAnswer.Event answer) {
        duplicate |= answer.status() == ReplyStatus.DUPLICATE;
        droppedLate |= answer.status() == ReplyStatus.DROPPED_LATE;
        if (answers == names.length) {
            throw new IllegalStateException("more answers than the " + names.length + " expected");
        }
        names[answers] = answer.names();
        values[answers] = answer.values();
        answers++;
        return --missing == 0;
    }

    /**
     * The merged reply; {@code metricOrder} is the stream's metrics in creation order (a metric still
     * being backfilled is in no task's answer yet, and is left out).
     */
    public StreamReply reply(String eventId, Iterable<String> metricOrder) {
        return new StreamReply(eventId, duplicate, droppedLate, metrics(metricOrder));
    }

    private ReplyMetrics metrics(Iterable<String> metricOrder) {
        if (answers == 1) {
            return inOrder(names[0], metricOrder) ? ReplyMetrics.of(names[0], values[0], names[0].length)
                    : mapped(metricOrder);
        }
        int total = 0;
        for (int a = 0; a < answers; a++) {
            total += names[a].length;
        }
        String[] n = new String[total];
        Object[] v = new Object[total];
        int[] next = new int[answers]; // each answer's first name not yet merged: the only one that can be the current name
        int size = 0;
        for (String name : metricOrder) {
            int from = -1;
            for (int a = 0; a < answers; a++) {
                if (next[a] < names[a].length && names[a][next[a]].equals(name)) {
                    next[a]++;
                    from = a; // the later answer wins, as when the values were put into a map in answer order
                }
            }
            if (from >= 0) {
                n[size] = name;
                v[size] = values[from][next[from] - 1];
                size++;
            }
        }
        for (int a = 0; a < answers; a++) {
            if (next[a] != names[a].length) {
                return mapped(metricOrder); // an answer out of creation order (never seen), or naming a metric not in it
            }
        }
        return ReplyMetrics.of(n, v, size);
    }

    /** The merge for answers not in creation order: through a map, as the merger did before it kept arrays. */
    private ReplyMetrics mapped(Iterable<String> metricOrder) {
        Map<String, Object> byName = new HashMap<>();
        for (int a = 0; a < answers; a++) {
            for (int i = 0; i < names[a].length; i++) {
                byName.put(names[a][i], values[a][i]);
            }
        }
        String[] n = new String[byName.size()];
        Object[] v = new Object[n.length];
        int size = 0;
        for (String name : metricOrder) {
            if (byName.containsKey(name)) {
                n[size] = name;
                v[size] = byName.get(name);
                size++;
            }
        }
        return ReplyMetrics.of(n, v, size);
    }

    /**
     * Whether {@code answer}'s names appear in {@code order} in the same sequence (others between
     * them allowed): then the merged names of that answer alone are the answer's, as they are.
     * One pass over both, names being distinct in each.
     */
    private static boolean inOrder(String[] answer, Iterable<String> order) {
        int i = 0;
        for (String name : order) {
            if (i == answer.length) {
                return true;
            }
            if (answer[i].equals(name)) {
                i++;
            }
        }
        return i == answer.length;
    }
}
