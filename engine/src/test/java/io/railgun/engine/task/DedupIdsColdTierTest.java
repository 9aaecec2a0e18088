package io.railgun.engine.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.reservoir.InMemoryReservoir;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.state.MapColdKeys;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link DedupIds}' cold tier and its filter of cold ids across restores, horizon changes and jumps
 * in time: an id the cold tier holds is never new (the cases a review found, each failing before
 * its fix), and the filter keeps answering. Event time in plain units; ids are longs.
 */
class DedupIdsColdTierTest {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final Schema SCHEMA;

    static {
        Map<String, FieldType> f = new LinkedHashMap<>();
        f.put("id", FieldType.LONG);
        f.put("ts", FieldType.TIMESTAMP);
        SCHEMA = Schema.of(f);
    }

    private final EventRowWriter w = new EventRowWriter();
    private final InMemoryReservoir reservoir = new InMemoryReservoir();
    private final MapColdKeys store = new MapColdKeys();
    private long seq;

    /** Run 1: in-memory part 10, H 100, ids 1..1000 at t = id, a checkpoint at T = 1000. */
    private void firstRun() {
        DedupIds ids = new DedupIds(reservoir, 0, false, "id", store, 10);
        ids.setHorizon(100, 0);
        for (long t = 1; t <= 1000; t++) {
            count(ids, t, t);
        }
        ids.markCheckpoint();
        ids.close();
    }

    @Test
    void aWidthChangeAfterARestoreWithALongerInMemoryPartMissesNoColdId() {
        firstRun();
        // run 2: in-memory part 50, so the ids in (950, 990] stay in the cold tier only
        DedupIds ids = new DedupIds(reservoir, 0, false, "id", store, 50);
        ids.restore(1000, 100, 0);
        ids.setHorizon(60, 0); // the cold tier's width 50 -> 10: a new filter
        for (long t = 1001; t <= 1011; t++) {
            count(ids, 100_000 + t, t);
        }
        assertThat(isNew(ids, 970, 1011)).as("id 970, still in the cold tier").isFalse();
        assertThat(isNew(ids, 424_242, 1011)).isTrue();
    }

    @Test
    void theColdTierSwitchedOffAfterSuchARestoreMissesNoColdId() {
        firstRun();
        DedupIds ids = new DedupIds(reservoir, 0, false, "id", store, 50);
        ids.restore(1000, 100, 0);
        ids.setHorizon(50, 0); // H 50: no cold tier; its ids go back to memory
        for (long t = 1001; t <= 1011; t++) {
            count(ids, 100_000 + t, t);
        }
        assertThat(isNew(ids, 970, 1011)).as("id 970, back in memory").isFalse();
    }

    @Test
    void aCheckpointOfAVersionWithoutTheFilterMakesTheSavedOneStale() {
        firstRun();
        // a version without the filter ran on: it spilled the ids up to 1,490 and saved its mark only
        DedupIds older = new DedupIds(reservoir, 0, false, "id", store, 10);
        older.restore(1000, 100, 0);
        for (long t = 1001; t <= 1500; t++) {
            count(older, t, t);
        }
        older.close();
        oldVersionMark(1489); // T - Hh - 1: up to where it spilled (the filter's directory stays run 1's)
        DedupIds ids = new DedupIds(reservoir, 0, false, "id", store, 10);
        ids.restore(1500, 100, 0);
        assertThat(isNew(ids, 1450, 1500)).as("id 1450, spilled by the version without the filter").isFalse();
        assertThat(isNew(ids, 999_999, 1500)).isTrue();
    }

    @Test
    void aVersionWithoutTheFilterThatLengthenedTheHorizonLeavesNoStaleFilterTrusted() {
        firstRun();
        DedupIds older = new DedupIds(reservoir, 0, false, "id", store, 10);
        older.restore(1000, 100, 0);
        older.setHorizon(150, 0); // the ids in (849, 899] go to the cold tier; time does not move
        older.close();
        oldVersionMark(989); // its checkpoint: the same spill mark, the filter's directory run 1's
        DedupIds ids = new DedupIds(reservoir, 0, false, "id", store, 10);
        ids.restore(1000, 150, 0);
        assertThat(isNew(ids, 860, 1000)).as("id 860, cold").isFalse();
    }

    @Test
    void aRestoreWithALongerHorizonRemembersTheIdsBetweenTheForgetBoundaries() {
        firstRun();
        DedupIds ids = new DedupIds(reservoir, 0, false, "id", store, 10);
        ids.restore(1000, 200, 0); // H 100 -> 200: the ids in (799, 899] are remembered again
        assertThat(isNew(ids, 850, 1000)).as("id 850").isFalse();
        assertThat(isNew(ids, 790, 1000)).as("id 790, outside H").isTrue();
    }

    @Test
    void aShorterInMemoryPartAfterSuchARestoreMissesNoId() {
        firstRun(); // mark 989
        DedupIds ids = new DedupIds(reservoir, 0, false, "id", store, 10);
        ids.restore(1000, 100, 60); // in memory: 60, so spill boundary 939; cold up to 989
        ids.setHorizon(120, 60); // (939, 989] to memory, deleted from cold
        ids.setHorizon(120, 20); // spill boundary 979: (939, 979] back to cold
        assertThat(isNew(ids, 950, 1000)).as("id 950").isFalse();
    }

    @Test
    void aCheckpointsOwnFilterIsTrustedAtRestoreAndAnUnreadableOneIsNot() {
        firstRun();
        DedupIds ids = new DedupIds(reservoir, 0, false, "id", store, 10);
        ids.restore(1000, 100, 0);
        for (long id = 5_000_000; id < 5_000_200; id++) {
            assertThat(isNew(ids, id, 1000)).isTrue();
        }
        assertThat(ids.filterNegatives()).as("new ids ruled out by the restored filter").isEqualTo(200);
        ids.close();
        // a directory of an unknown format (a development layout): ignored, not a failed restore
        store.store(new byte[] {2}, 0, 1, new byte[24], 0, 24, false);
        DedupIds again = new DedupIds(reservoir, 0, false, "id", store, 10);
        again.restore(1000, 100, 0);
        assertThat(isNew(again, 970, 1000)).as("id 970, cold").isFalse();
        assertThat(again.filterNegatives()).isZero();
    }

    @Test
    void aJumpInTimeDoesNotMakeTheFilterGiveUp() {
        DedupIds ids = new DedupIds(reservoir, 0, false, "id", store, 1440); // a day in minutes
        ids.setHorizon(1500, 0); // a cold tier an hour wide
        long t = 1;
        for (; t <= 3000; t++) {
            count(ids, t, t);
        }
        t += 1000; // the source idle for 1,000 minutes
        for (long end = t + 3000; t <= end; t++) {
            count(ids, 1_000_000 + t, t);
        }
        long before = ids.filterNegatives();
        for (long end = t + 1000; t <= end; t++) {
            count(ids, 1_000_000 + t, t);
        }
        assertThat(ids.filterNegatives() - before).as("new ids the filter ruled out, of 1,001").isGreaterThan(900);
        assertThat(ids.filterBytes()).isPositive();
    }

    /** The mark record as a version without the filter writes it: the spill mark only. */
    private void oldVersionMark(long mark) {
        byte[] b = new byte[8];
        LONG.set(b, 0, mark);
        store.store(new byte[] {0}, 0, 1, b, 0, 8, false);
    }

    private void count(DedupIds ids, long id, long t) {
        assertThat(isNew(ids, id, t)).as("id %d", id).isTrue();
        ids.remember(t);
        reservoir.insert(t, seq++, w.row());
        ids.advance(t);
    }

    private boolean isNew(DedupIds ids, long id, long t) {
        w.begin(SCHEMA).setLong(0, id).setLong(1, t);
        w.finish();
        return ids.isNew(w.row());
    }
}
