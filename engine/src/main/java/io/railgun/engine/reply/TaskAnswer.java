package io.railgun.engine.reply;

import io.railgun.engine.task.Reply;
import io.railgun.engine.task.ReplyStatus;

/**
 * One task's answer to one input: to an event ({@link Event}), to a point read ({@link Read}), or
 * an error ({@link Error}). A value: built once on the task's thread, then read by whichever thread
 * merges it (a task on the same node hands it over as it is; across nodes it travels encoded, see
 * the node's {@code TaskReplyDescriptor}).
 */
public sealed interface TaskAnswer permits TaskAnswer.Event, TaskAnswer.Read, TaskAnswer.Error {

    /**
     * A task's reply to an event.
     *
     * @param status     counted, duplicate or dropped as late
     * @param streamTime the task's stream time after the event
     * @param names      the task's metric names (a task's own array: never modified)
     * @param values     their values, same order: Long, Double, String, Boolean or null
     */
    record Event(ReplyStatus status, long streamTime, String[] names, Object[] values) implements TaskAnswer {
        /** Copies the values out of the task's reusable {@link Reply}. */
        public static Event of(Reply r) {
            int n = r.size();
            String[] names = new String[n];
            Object[] values = new Object[n];
            for (int i = 0; i < n; i++) {
                names[i] = r.name(i);
                values[i] = r.value(i);
            }
            return new Event(r.status(), r.streamTime(), names, values);
        }
    }

    /** A task's reply to a point read: the value at its stream time (none before its first event). */
    record Read(boolean hasStreamTime, long streamTime, Object value) implements TaskAnswer {}

    /** A task's refusal: HTTP status, stable code, a message that says how to fix it. */
    record Error(int status, String code, String message) implements TaskAnswer {}
}
