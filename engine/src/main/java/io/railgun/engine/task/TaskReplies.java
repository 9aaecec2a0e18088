package io.railgun.engine.task;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.plan.TaskPlan;

/**
 * The reply assembly of a {@link TaskProcessor}: one reused {@link Reply}, whose layout follows the
 * metrics of the task's plan, filled with every metric's value for an event's keys, or for a point
 * read.
 *
 * <p>Task's thread only, like its {@link TaskProcessor}. The reply returned is the same object each
 * time: valid until the next call. Filling it for an event allocates nothing in steady state (a
 * point read boxes its value).
 */
final class TaskReplies {
    private final TaskPlan plan;
    private final Reply reply = new Reply();

    TaskReplies(TaskPlan plan) {
        this.plan = plan;
    }

    /** Lays the reply out again after the plan's metrics in replies changed (added, removed, backfilled). */
    void layout() {
        reply.layout(plan.names(), plan.types());
    }

    /**
     * The reply to an event: its status, its timestamp {@code ts} and the stream time, and every
     * metric of the plan for the event's keys (seq -1: an event not counted).
     */
    Reply of(ReplyStatus status, long ts, long seq, long streamTime, EventRow row) {
        reply.reset(status, ts, streamTime);
        plan.evaluate(row, seq, reply);
        return reply;
    }

    /**
     * The current value of a metric for the key in {@code keyRow}'s group-by fields at
     * {@code streamTime}, boxed; see {@link TaskProcessor#read}.
     *
     * @throws IllegalArgumentException when the task has no such metric
     * @throws IllegalStateException    while the metric is being backfilled
     */
    Object read(String metric, EventRow keyRow, long streamTime) {
        int index = plan.indexOf(metric);
        if (index < 0) {
            double progress = plan.backfillProgress(metric, streamTime);
            if (progress >= 0) {
                throw new IllegalStateException("metric '" + metric + "' is being backfilled (" + (int) (progress * 100)
                        + "% done); it can be read once the backfill completes");
            }
            throw new IllegalArgumentException("no metric '" + metric + "' on this task");
        }
        reply.reset(ReplyStatus.COUNTED, streamTime, streamTime);
        plan.evaluate(keyRow, -1, reply);
        return reply.value(index);
    }
}
