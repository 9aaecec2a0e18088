package io.railgun.engine.reply;

import io.railgun.engine.task.ReplyStatus;

/**
 * Merges the answers of the tasks an event went to (one per partitioner of its stream) into the
 * one reply the client gets (SPEC §3.3): {@code duplicate} when any task had already counted the
 * event id, {@code droppedLate} when any task dropped it as late, and the metrics the union of the
 * tasks', in the stream's creation order (a name two answers share takes the later answer's value).
 * The one merger of the engine's local stream and the node's front-end.
 *
 * <p>No hash table per event: the answers' arrays are kept as they come and matched against the
 * creation order at the end, each answer read from where its last match left off (tasks answer in
 * creation order, so that is one pass); a single answer already in that order is the reply's
 * metrics as it is.
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
        if (answers == 1 && inOrder(names[0], metricOrder)) {
            return ReplyMetrics.of(names[0], values[0], names[0].length);
        }
        int total = 0;
        for (int a = 0; a < answers; a++) {
            total += names[a].length;
        }
        String[] n = new String[total];
        Object[] v = new Object[total];
        int[] from = new int[answers];
        int size = 0;
        for (String name : metricOrder) {
            // the later answer wins, as when the values were put into a map in answer order
            for (int a = answers - 1; a >= 0; a--) {
                int i = find(names[a], name, from[a]);
                if (i >= 0) {
                    from[a] = i + 1;
                    n[size] = name;
                    v[size] = values[a][i];
                    size++;
                    break;
                }
            }
        }
        return ReplyMetrics.of(n, v, size);
    }

    /** Index of {@code name} in {@code in}, looked for from {@code from} on, then before it; -1 if absent. */
    private static int find(String[] in, String name, int from) {
        for (int k = 0; k < in.length; k++) {
            int i = from + k < in.length ? from + k : from + k - in.length;
            if (in[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Whether {@code answer} names exactly the metrics of {@code order} that it holds, in that order, and no others. */
    private static boolean inOrder(String[] answer, Iterable<String> order) {
        int i = 0;
        for (String name : order) {
            if (i < answer.length && answer[i].equals(name)) {
                i++;
            } else if (contains(answer, name, i)) {
                return false; // present, but later than its turn
            }
        }
        return i == answer.length;
    }

    private static boolean contains(String[] in, String name, int from) {
        for (int i = from; i < in.length; i++) {
            if (in[i].equals(name)) {
                return true;
            }
        }
        return false;
    }
}
