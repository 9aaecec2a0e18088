package io.railgun.engine.task;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.event.EventTime;
import io.railgun.engine.plan.TaskPlan;
import io.railgun.engine.reservoir.EventReservoir;
import io.railgun.engine.reservoir.ReservoirCursor;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.window.WindowBounds;

/**
 * The admission of events into a {@link TaskProcessor}'s task, and the event-time position it
 * moves: stream time, the next seq, the {@link DedupHorizon} in force and the stream's retention
 * of history. Exact semantics in SPEC §5 and in {@code docs/semantics.md}.
 *
 * <p>{@link #admit} decides each event's fate: (0) a timestamp outside {@link EventTime}'s range is
 * refused by an exception; (1) an id counted within the dedup horizon makes it a DUPLICATE; (2) an
 * event more than {@code lateness} behind stream time is dropped, or rewritten to
 * {@code T - lateness}; (3) otherwise it is counted: it gets the next seq, is stored in the
 * reservoir at its timestamp and delivered at once to the windows whose edges it is behind, or,
 * when it is ahead of stream time, stream time advances, moving every window edge and dedup
 * boundary. The reply is not built here: the task asks {@link #timestamp()} and {@link #seq()}.
 *
 * <p>The reservoir keeps an event while any cursor still needs it: a window's tail, the dedup
 * horizon ({@link DedupIds}' forget cursor), or the stream's retention
 * ({@link StreamDefinition#retentionMs()}, the retention cursor held here).
 *
 * <p>Task's thread only, like its {@link TaskProcessor}; {@link #admit} allocates nothing in steady
 * state.
 */
final class EventAdmission {
    private StreamDefinition stream;
    private final TaskOptions options;
    private final EventReservoir reservoir;
    private final TaskPlan plan;
    private final DedupIds ids;
    private final int timestampField; // -1: ingestion time from the options' clock

    // holds the stream's retention of history (for backfill); null when retention is 0
    private ReservoirCursor retentionCursor;
    private long dedupHorizonMs;

    private long streamTime = Long.MIN_VALUE; // Long.MIN_VALUE: no event counted yet (accepted timestamps are above it)
    private long nextSeq;

    // the last event admitted: its timestamp (rewritten when late) and seq (-1 when not counted)
    private long timestamp;
    private long seq;

    EventAdmission(StreamDefinition stream, TaskOptions options, EventReservoir reservoir, TaskPlan plan,
                   DedupIds ids) {
        this.stream = stream;
        this.options = options;
        this.reservoir = reservoir;
        this.plan = plan;
        this.ids = ids;
        this.timestampField = stream.timestampField() == null ? -1 : stream.schema().field(stream.timestampField()).index();
        this.retentionCursor = stream.retentionMs() > 0 ? reservoir.openCursor(Long.MIN_VALUE) : null;
    }

    /**
     * Admits one event: DUPLICATE, DROPPED_LATE or COUNTED (stored, delivered, stream time moved).
     * {@link #timestamp()} and {@link #seq()} then describe it.
     *
     * @throws IllegalArgumentException when the event id or the timestamp field is null
     * @throws EventTime.TimestampOutOfRangeException when the timestamp is outside {@link EventTime}'s
     *                                  range; the event is not counted and its id not remembered
     */
    ReplyStatus admit(EventRow row) {
        long ts;
        if (timestampField >= 0) {
            if (row.isNull(timestampField)) {
                throw new IllegalArgumentException("the timestamp field '" + stream.timestampField() + "' is null");
            }
            ts = row.getLong(timestampField);
            if (!EventTime.accepted(ts)) {
                throw new EventTime.TimestampOutOfRangeException(stream.timestampField(), ts);
            }
        } else {
            ts = options.clock().millis();
        }
        timestamp = ts;
        seq = -1;
        if (!ids.isNew(row)) {
            return ReplyStatus.DUPLICATE;
        }
        if (started() && ts < WindowBounds.minus(streamTime, stream.latenessMs())) {
            if (stream.lateEvents() == LateEventPolicy.DROP) {
                return ReplyStatus.DROPPED_LATE; // not counted: its id is not remembered
            }
            ts = WindowBounds.minus(streamTime, stream.latenessMs());
            timestamp = ts;
        }
        ids.remember(ts); // H >= lateness: live at once, and in the hot tier
        long s = nextSeq++;
        seq = s;
        reservoir.insert(ts, s, row);
        if (ts > streamTime) {
            streamTime = ts;
            reservoir.advanceWatermark(WindowBounds.minus(ts, stream.latenessMs()));
            plan.advance(ts);
            ids.advance(ts);
            if (retentionCursor != null) {
                retentionCursor.skipTo(retentionBoundary(ts));
            }
            reservoir.trim();
        } else {
            plan.inserted(ts, s, row);
        }
        return ReplyStatus.COUNTED;
    }

    /** The timestamp of the last event admitted: its own, or {@code T - lateness} when a late one was rewritten. */
    long timestamp() {
        return timestamp;
    }

    /** The seq of the last event admitted when it was counted; -1 otherwise. */
    long seq() {
        return seq;
    }

    /**
     * Restores the position of a checkpoint (stream time Long.MIN_VALUE: no event yet), after its
     * statements are back in the plan: the reservoir's watermark, the dedup horizon and the ids the
     * checkpoint's cold tier does not hold (read back from the reservoir), and the retention cursor.
     */
    void restore(long restoredNextSeq, long restoredStreamTime) {
        nextSeq = restoredNextSeq;
        streamTime = restoredStreamTime;
        if (started()) {
            reservoir.advanceWatermark(WindowBounds.minus(streamTime, stream.latenessMs()));
        }
        dedupHorizonMs = dedupHorizon();
        // the ids of the events the checkpoint's cold tier does not hold are read back from the reservoir
        ids.restore(streamTime, dedupHorizonMs, stream.latenessMs());
        if (retentionCursor != null) {
            retentionCursor.close();
            retentionCursor = reservoir.openCursor(started() ? retentionBoundary(streamTime) : Long.MIN_VALUE);
        }
    }

    /**
     * Recomputes the dedup horizon (at creation, and after metrics changed). A shorter one forgets
     * ids at once; a longer one remembers again the ids of the events the reservoir still holds
     * within it (all of them when the stream's retention covers the new horizon), so an event re-sent
     * within the horizon is a duplicate whatever the horizon was when its original was counted.
     */
    void updateHorizon() {
        dedupHorizonMs = dedupHorizon();
        ids.setHorizon(dedupHorizonMs, stream.latenessMs());
        if (started()) {
            reservoir.trim();
        }
    }

    /** The stream definition in force (its schema and settings). */
    StreamDefinition stream() {
        return stream;
    }

    /** Adopts a compatible schema change (fields appended: the timestamp field keeps its slot). */
    void updateStream(StreamDefinition newDefinition) {
        this.stream = newDefinition;
    }

    /** The largest timestamp counted, or Long.MIN_VALUE before the first event. */
    long streamTime() {
        return streamTime;
    }

    /** Whether an event was counted (or a checkpoint with one restored). */
    boolean started() {
        return streamTime != Long.MIN_VALUE;
    }

    /** The dedup horizon the stream's lateness and the plan's windows ask for. */
    private long dedupHorizon() {
        return DedupHorizon.of(options.minDedupHorizonMs(), stream.latenessMs(), plan.maxExtentMs());
    }

    /** The last timestamp the stream's retention lets go at stream time {@code t}. */
    private long retentionBoundary(long t) {
        return WindowBounds.minus(WindowBounds.minus(t, stream.retentionMs()), 1);
    }

    /** The seq the next counted event gets. */
    long nextSeq() {
        return nextSeq;
    }

    long dedupHorizonMs() {
        return dedupHorizonMs;
    }
}
