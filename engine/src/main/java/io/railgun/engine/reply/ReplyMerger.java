package io.railgun.engine.reply;

import io.railgun.engine.task.ReplyStatus;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Merges the answers of the tasks an event went to (one per partitioner of its stream) into the
 * one reply the client gets (SPEC §3.3): {@code duplicate} when any task had already counted the
 * event id, {@code droppedLate} when any task dropped it as late, and the metrics the union of the
 * tasks', in the stream's creation order. The one merger of the engine's local stream and the
 * node's front-end.
 *
 * <p>Not thread-safe: the caller serialises {@link #add} when answers come from several threads.
 */
public final class ReplyMerger {
    private int missing;
    private boolean duplicate;
    private boolean droppedLate;
    private final Map<String, Object> values = new HashMap<>();

    /** A merger waiting for {@code parts} answers. */
    public ReplyMerger(int parts) {
        this.missing = parts;
    }

    /** Adds one task's answer; true when it was the last one expected. */
    public boolean add(TaskAnswer.Event answer) {
        duplicate |= answer.status() == ReplyStatus.DUPLICATE;
        droppedLate |= answer.status() == ReplyStatus.DROPPED_LATE;
        String[] names = answer.names();
        Object[] v = answer.values();
        for (int i = 0; i < names.length; i++) {
            values.put(names[i], v[i]);
        }
        return --missing == 0;
    }

    /**
     * The merged reply; {@code metricOrder} is the stream's metrics in creation order (a metric still
     * being backfilled is in no task's answer yet, and is left out).
     */
    public StreamReply reply(String eventId, Iterable<String> metricOrder) {
        Map<String, Object> ordered = new LinkedHashMap<>();
        for (String name : metricOrder) {
            if (values.containsKey(name)) {
                ordered.put(name, values.get(name));
            }
        }
        return new StreamReply(eventId, duplicate, droppedLate, ordered);
    }
}
