package io.railgun.engine.schema;

/** What a task does with an event later than its stream's {@code lateness} (SPEC §3.1). */
public enum LateEventPolicy {
    /** Not counted; the reply says {@code "dropped": "late"}. */
    DROP,
    /** Counted with timestamp {@code streamTime - lateness}. */
    REWRITE
}
