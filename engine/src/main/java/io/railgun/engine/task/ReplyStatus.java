package io.railgun.engine.task;

/** How a task treated an event (SPEC §3.3). Expected outcomes are values, not exceptions. */
public enum ReplyStatus {
    /** Accepted and counted (at its own timestamp, or rewritten if it was too late). */
    COUNTED,
    /** Its event id was already counted by this task: not counted again. */
    DUPLICATE,
    /** Later than the stream's lateness and the policy is drop: not counted. */
    DROPPED_LATE
}
