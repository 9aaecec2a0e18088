package io.railgun.engine.task;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.plan.TaskPlan;

/**
 * The lookups of events a task will process soon, prefetched together: each noted event's id (in
 * the dedup index) and keys (in every key table) are hashed and the table slots their lookups
 * start at noted ({@link io.railgun.engine.state.Prefetches}); the next event's processing first
 * loads all of them back to back, so that their cache misses overlap. A processor unit notes a
 * poll's records 16 at a time; E1 then runs 20–24% faster ({@code docs/benchmarks.md}).
 *
 * <p>A hint only: nothing is changed, and a noted event need not be processed. Owned by the
 * task's thread.
 */
final class LookupPrefetches {
    private final DedupIds ids;
    private final TaskPlan plan;
    private boolean noted;
    @SuppressWarnings("unused") // written so that the loads are kept
    private long loaded;

    LookupPrefetches(DedupIds ids, TaskPlan plan) {
        this.ids = ids;
        this.plan = plan;
    }

    /** Notes the lookups of {@code row} (which may be reused at once). */
    void note(EventRow row) {
        try {
            ids.prefetch(row);
            plan.prefetch(row);
            noted = true;
        } catch (RuntimeException malformed) {
            // a hint only: processing the event refuses it with its own message
        }
    }

    /** Loads the slots noted since the last call, if any (before an event is processed). */
    void issue() {
        if (noted) {
            noted = false;
            loaded += ids.issuePrefetches() + plan.issuePrefetches();
        }
    }
}
