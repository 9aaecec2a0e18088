package io.railgun.engine.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.reservoir.InMemoryReservoir;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.state.MapColdKeys;
import io.railgun.engine.state.durable.HotIdPool;
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
    private long time = Long.MIN_VALUE;

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
        assertThat(ids.cold().filterNegatives()).as("new ids ruled out by the restored filter").isEqualTo(200);
        ids.close();
        // a directory of an unknown format (a development layout): ignored, not a failed restore
        store.store(new byte[] {2}, 0, 1, new byte[24], 0, 24, false);
        DedupIds again = new DedupIds(reservoir, 0, false, "id", store, 10);
        again.restore(1000, 100, 0);
        assertThat(isNew(again, 970, 1000)).as("id 970, cold").isFalse();
        assertThat(again.cold().filterNegatives()).isZero();
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
        long before = ids.cold().filterNegatives();
        for (long end = t + 1000; t <= end; t++) {
            count(ids, 1_000_000 + t, t);
        }
        assertThat(ids.cold().filterNegatives() - before).as("new ids the filter ruled out, of 1,001").isGreaterThan(900);
        assertThat(ids.cold().filterBytes()).isPositive();
    }

    /**
     * A restore with a shorter horizon (here with no cold tier) deletes the cold ids it no longer
     * covers: left in RocksDB, X's forgotten copy at 100 — its event since trimmed from the
     * reservoir — was taken for a later copy of X counted late at 90 once the horizon grew again,
     * which was then neither stored nor put in the filter (found by review).
     */
    @Test
    void aShorterHorizonAtARestoreLeavesNoStaleColdIdBehind() {
        DedupIds ids = new DedupIds(reservoir, 0, false, "id", store, 0);
        ids.setHorizon(100, 0); // no in-memory part: the cold tier holds everything older than T - 1
        admit(ids, 7, 100);
        admit(ids, 1, 110); // X@100 moved to the cold tier
        ids.markCheckpoint();
        ids.close();
        ids = new DedupIds(reservoir, 0, false, "id", store, 0);
        ids.restore(110, 5, 5); // H 5: X@100 forgotten (and no cold tier: Hh 5)
        admit(ids, 2, 111); // the reservoir lets X@100 go
        ids.setHorizon(50, 30); // longer again; X@100 is not held, so not remembered again
        admit(ids, 7, 90); // late, and new: counted
        admit(ids, 3, 125); // X@90 moves to the cold tier
        assertThat(isNew(ids, 7, 126)).as("X, counted at 90, within H 50 of T 125").isFalse();
    }

    /** Likewise with the cold tier still active: the ids before the new forget boundary are deleted. */
    @Test
    void aShorterHorizonAtARestoreDeletesTheColdIdsItNoLongerCovers() {
        DedupIds ids = new DedupIds(reservoir, 0, false, "id", store, 0);
        ids.setHorizon(100, 0);
        for (long t = 1; t <= 60; t++) {
            count(ids, t, t); // ids 1..59 move to the cold tier
        }
        ids.markCheckpoint();
        ids.close();
        ids = new DedupIds(reservoir, 0, false, "id", store, 0);
        ids.restore(60, 20, 0); // forget boundary 39
        assertThat(store.keysWithTag((byte) 1)).as("cold ids left: 40..59").isEqualTo(20);
        assertThat(isNew(ids, 45, 60)).isFalse();
        assertThat(isNew(ids, 30, 60)).isTrue();
    }

    /**
     * A 16-byte mark record (an earlier version's) written while the cold tier was off has no
     * forget boundary: whether the restore's horizon is longer is not known, so both copies of X
     * (1000 and 1031, more than the old horizon 20 apart) may be in the new one — the later must keep
     * X when the older is forgotten (found by review).
     */
    @Test
    void aRestoreFromAnEarlierVersionsRecordKeepsTheLaterCopyOfAnId() {
        DedupIds first = new DedupIds(reservoir, 0, false, "id", store, 50);
        first.setHorizon(20, 0); // no cold tier; the reservoir keeps the events (a window's)
        count(first, 7, 1000);
        count(first, 1, 1030);
        count(first, 7, 1031); // X again: its copy at 1000 is forgotten
        first.close();
        time = 1031;
        byte[] b = new byte[16]; // that version's record while its cold tier was off: M and F unknown
        LONG.set(b, 0, Long.MIN_VALUE);
        LONG.set(b, 8, Long.MIN_VALUE);
        store.store(new byte[] {0}, 0, 1, b, 0, 16, false);
        DedupIds ids = new DedupIds(reservoir, 0, false, "id", store, 5);
        ids.restore(1031, 100, 0); // H 100: X@1000 and X@1031 both within it
        admit(ids, 2, 1040); // X@1031 to the cold tier
        admit(ids, 3, 1105); // X@1000 forgotten
        assertThat(isNew(ids, 7, 1106)).as("X, counted at 1031, within H 100 of T 1105").isFalse();
    }

    /** Counts a new event as {@code EventAdmission} does, trimming the reservoir as the time moves. */
    private void admit(DedupIds ids, long id, long t) {
        assertThat(isNew(ids, id, t)).as("id %d at %d", id, t).isTrue();
        ids.remember(t);
        reservoir.insert(t, seq++, w.row());
        if (t > time) {
            time = t;
            ids.advance(t);
            reservoir.trim();
        }
    }

    /** The mark record as a version without the filter writes it: the spill mark only. */
    private void oldVersionMark(long mark) {
        byte[] b = new byte[8];
        LONG.set(b, 0, mark);
        store.store(new byte[] {0}, 0, 1, b, 0, 8, false);
    }

    /**
     * In a node's pool of hot ids: every id of the horizon stays in memory (none written cold)
     * until the pool is passed; then the ids older than the in-memory part go to the cold tier at
     * once, all still duplicates, and a checkpoint taken then restores with the tier active.
     */
    @Test
    void aPoolKeepsEveryIdInMemoryUntilItIsPassed() {
        // the bytes of the index of 100 ids, measured, so that the pool holds them with room
        // for less than as much again, and this task holds more than an even part of it
        long own = filledIndexBytes();
        HotIdPool pool = new HotIdPool(own * 3 / 2);
        DedupIds ids = new DedupIds(reservoir, 0, false, "id", store, 10, pool);
        ids.setHorizon(100, 0);
        for (long t = 1; t <= 1000; t++) {
            count(ids, t, t);
        }
        assertThat(ids.hotIds()).as("the horizon's ids (T - H = 900 on), in memory").isEqualTo(101);
        assertThat(store.keysWithTag(ColdIds.ID)).as("ids written cold").isZero();
        assertThat(pool.heldBytes()).isEqualTo(own);

        pool.join().report(own); // a neighbour task passes the pool
        count(ids, 1001, 1001);
        assertThat(ids.hotIds()).as("the in-memory part's ids: (990, 1001]").isEqualTo(11);
        assertThat(store.keysWithTag(ColdIds.ID)).as("the older ones, cold: (900, 990]").isEqualTo(90);
        for (long id : new long[] {901, 950, 990, 995, 1001}) {
            assertThat(isNew(ids, id, 1001)).as("id %d", id).isFalse();
        }
        assertThat(isNew(ids, 900, 1001)).as("id 900, past the horizon").isTrue();
        ids.markCheckpoint();
        ids.close();

        DedupIds restored = new DedupIds(reservoir, 0, false, "id", store, 10, pool);
        restored.restore(1001, 100, 0);
        assertThat(restored.hotIds()).as("restored with the cold tier: the in-memory part's ids").isEqualTo(11);
        for (long id : new long[] {901, 950, 995}) {
            assertThat(isNew(restored, id, 1001)).as("id %d after the restore", id).isFalse();
        }
        restored.close();
    }

    /**
     * A task whose horizon is within its in-memory part keeps its ids in memory anyway: they are not
     * the pool's, so they neither fill it nor push other tasks' ids to their cold tiers (they did,
     * an E1 task's hour of ids counted against a FRAUD task's 180 days); and a task whose horizon
     * shrinks to within that part takes its ids out of the pool.
     */
    @Test
    void onlyIdsPastTheInMemoryPartCountInThePool() {
        HotIdPool pool = new HotIdPool(1L << 30);
        DedupIds ids = new DedupIds(reservoir, 0, false, "id", store, 200, pool);
        ids.setHorizon(100, 0); // within the in-memory part of 200
        for (long t = 1; t <= 1000; t++) {
            count(ids, t, t);
        }
        assertThat(pool.heldBytes()).as("a horizon within the in-memory part").isZero();

        ids.setHorizon(300, 0); // past it: the ids count
        count(ids, 1001, 1001);
        assertThat(pool.heldBytes()).isPositive();
        ids.setHorizon(150, 0); // within it again
        assertThat(pool.heldBytes()).as("back within the in-memory part").isZero();
        ids.close();
    }

    /**
     * At a high rate a day of ids outgrows the pool even with the cold tier active: the pool still
     * passed, the hot horizon is narrowed until the task's ids fit (never below the lateness), the
     * ids it leaves are cold and still duplicates, and a restore keeps it narrowed rather than
     * reading the whole in-memory part back.
     */
    @Test
    void aPoolPassedWithTheColdTierActiveNarrowsTheHotHorizon() {
        HotIdPool pool = new HotIdPool(400_000);
        DedupIds ids = new DedupIds(reservoir, 0, false, "id", store, 2_000, pool);
        ids.setHorizon(4_000, 100);
        long id = 0;
        for (long t = 1; t <= 5_000; t++) {
            for (int k = 0; k < 20; k++) { // 20 ids a ms: 40,000 in the in-memory part of 2,000 ms
                count(ids, id++, t);
            }
        }
        System.out.printf("[dedup ids] pool %,d B: held %,d B, %,d ids in memory, %d narrowings%n", pool.limitBytes(),
                pool.heldBytes(), ids.hotIds(), ids.hotHorizon().narrowings());
        assertThat(ids.hotHorizon().narrowings()).as("narrowings").isPositive();
        assertThat(pool.heldBytes()).as("the task's ids in memory, within the pool").isLessThanOrEqualTo(pool.limitBytes());
        long hotIds = ids.hotIds();
        assertThat(hotIds).as("fewer than the in-memory part's, at least the lateness's")
                .isLessThan(40_000).isGreaterThanOrEqualTo(100 * 20);
        // ids of the whole horizon (counted after T - H - 1 = 999) are duplicates, hot or cold
        for (long t : new long[] {1_000, 2_500, 3_001, 4_000, 4_990, 5_000}) {
            assertThat(isNew(ids, (t - 1) * 20, 5_000)).as("the id counted at %d", t).isFalse();
        }
        assertThat(isNew(ids, 998 * 20, 5_000)).as("the id counted at 999, past the horizon").isTrue();
        ids.markCheckpoint();
        ids.close();

        DedupIds restored = new DedupIds(reservoir, 0, false, "id", store, 2_000, pool);
        restored.restore(5_000, 4_000, 100);
        assertThat(restored.hotIds()).as("restored with the narrowed hot horizon").isLessThanOrEqualTo(hotIds);
        for (long t : new long[] {1_001, 3_001, 5_000}) {
            assertThat(isNew(restored, (t - 1) * 20, 5_000)).as("the id counted at %d, after the restore", t).isFalse();
        }
        for (long t = 5_001; t <= 5_500; t++) {
            for (int k = 0; k < 20; k++) {
                count(restored, id++, t);
            }
        }
        assertThat(restored.hotHorizon().narrowings()).as("narrowings after the restore (the horizon kept narrowed)").isZero();
        assertThat(pool.heldBytes()).isLessThanOrEqualTo(pool.limitBytes());
        // the rate falls to an id a ms: the pool has room, the hot horizon is widened back (doubled
        // while an index three times as large would leave the pool within 3/4)
        for (long t = 5_501; t <= 9_000; t++) {
            count(restored, id++, t);
        }
        assertThat(restored.hotHorizon().widenings()).as("widenings").isPositive();
        assertThat(restored.hotHorizon().capMs()).as("the cap, widened back from 119 ms").isGreaterThanOrEqualTo(900);
        assertThat(pool.heldBytes()).isLessThanOrEqualTo(pool.limitBytes());
        // ids counted at 9,000, 8,001, 6,501 and about 5,480 (T - H - 1 = 4,999): duplicates, hot or cold
        for (long back : new long[] {1, 1_000, 2_500, 3_900}) {
            assertThat(isNew(restored, id - back, 9_000)).as("id %d", id - back).isFalse();
        }
        assertThat(isNew(restored, 4_989 * 20, 9_000)).as("the id counted at 4,990, past the horizon").isTrue();
        restored.close();
    }

    /** The bytes a pool is told of for an index of the ids of {@link #aPoolKeepsEveryIdInMemoryUntilItIsPassed}. */
    private static long filledIndexBytes() {
        DedupIdsColdTierTest scratch = new DedupIdsColdTierTest();
        HotIdPool pool = new HotIdPool(Long.MAX_VALUE);
        DedupIds ids = new DedupIds(scratch.reservoir, 0, false, "id", scratch.store, 10, pool);
        ids.setHorizon(100, 0);
        for (long t = 1; t <= 1000; t++) {
            scratch.count(ids, t, t);
        }
        long bytes = pool.heldBytes();
        ids.close();
        return bytes;
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
