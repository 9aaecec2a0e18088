package io.railgun.engine.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.reservoir.InMemoryReservoir;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.state.MapColdKeys;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link DedupIds} with string ids longer than any the task encoded before: after a restore, the
 * spill and forget cursors pass ids this instance never saw, and the id's buffer grows on the way
 * (a refactor handed the cold tier the buffer before it grew: a 64-byte id, a SHA-256 in hex, then
 * made the task throw or delete the wrong key; found by review).
 */
class DedupIdsLongIdTest {
    private static final Schema SCHEMA;

    static {
        Map<String, FieldType> f = new LinkedHashMap<>();
        f.put("id", FieldType.STRING);
        f.put("ts", FieldType.TIMESTAMP);
        SCHEMA = Schema.of(f);
    }

    private final EventRowWriter w = new EventRowWriter();
    private final InMemoryReservoir reservoir = new InMemoryReservoir();
    private final MapColdKeys store = new MapColdKeys();
    private long seq;

    private static final String LONG_ID = "L".repeat(64); // e.g. a SHA-256 in hex

    /** After a restore, the forget cursor passes a >= 64-byte id before this instance encoded one. */
    @Test
    void aLongStringIdForgottenAfterARestore() {
        DedupIds ids = new DedupIds(reservoir, 0, true, "id", store, 10);
        ids.setHorizon(100, 0);
        count(ids, LONG_ID, 1);
        count(ids, "a", 20); // LONG_ID spilled to the cold tier (spill boundary 9)
        ids.markCheckpoint();
        ids.close();
        ids = new DedupIds(reservoir, 0, true, "id", store, 10);
        ids.restore(20, 100, 0); // reads back only (9, 20]: "a"
        count(ids, "b", 200); // the forget cursor passes LONG_ID@1 (and "a"@20)
        // the durable store's ChangeBuffers.fullKey would throw here (arraycopy of 65 bytes from a
        // 64-byte array); MapColdKeys pads the stale scratch with zeros and deletes a wrong key
        assertThat(store.keysWithTag((byte) 1)).as("cold ids left after both were forgotten").isZero();
    }

    /** Likewise the spill cursor, after a restore with a longer in-memory part (ids cold past the spill boundary). */
    @Test
    void aLongStringIdSpilledAfterARestore() {
        DedupIds ids = new DedupIds(reservoir, 0, true, "id", store, 10);
        ids.setHorizon(100, 0);
        count(ids, LONG_ID, 1);
        count(ids, "a", 20); // mark 9: LONG_ID cold
        ids.markCheckpoint();
        ids.close();
        ids = new DedupIds(reservoir, 0, true, "id", store, 50); // spill boundary -31, below the mark
        ids.restore(20, 100, 0); // reads back (9, 20] only
        count(ids, "b", 60); // the spill cursor passes LONG_ID@1 again: ArrayIndexOutOfBoundsException
        assertThat(isNew(ids, LONG_ID, 60)).isFalse();
    }

    /** An id longer than a stage of cold writes holds is written in its turn, between staged ones. */
    @Test
    void anIdLongerThanAStageHoldsIsWrittenInItsTurn() {
        String huge = "H".repeat(StagedColdIds.MAX_STAGED + 45);
        DedupIds ids = new DedupIds(reservoir, 0, true, "id", store, 10);
        ids.setHorizon(100, 0);
        count(ids, "s1", 1);
        count(ids, huge, 2);
        count(ids, "s2", 3);
        count(ids, "x", 30);
        ids.markCheckpoint(); // the tiers catch up: spill boundary 19
        assertThat(store.keysWithTag((byte) 1)).as("cold ids").isEqualTo(3);
        assertThat(isNew(ids, huge, 31)).isFalse();
        assertThat(isNew(ids, "s2", 31)).isFalse();
        count(ids, "y", 200); // a jump of the tier's width: forget boundary 99, at once
        assertThat(store.keysWithTag((byte) 1)).as("cold ids left after all were forgotten").isZero();
        assertThat(isNew(ids, huge, 200)).isTrue();
    }

    private void count(DedupIds ids, String id, long t) {
        assertThat(isNew(ids, id, t)).as("id %s", id).isTrue();
        ids.remember(t);
        reservoir.insert(t, seq++, w.row());
        ids.advance(t);
    }

    private boolean isNew(DedupIds ids, String id, long t) {
        w.begin(SCHEMA).setString(0, id).setLong(1, t);
        w.finish();
        return ids.isNew(w.row());
    }
}
