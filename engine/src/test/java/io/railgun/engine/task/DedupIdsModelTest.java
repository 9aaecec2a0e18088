package io.railgun.engine.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.reservoir.InMemoryReservoir;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.state.MapColdKeys;
import io.railgun.engine.state.durable.HotIdPool;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link DedupIds} against a brute-force model on random histories: an id is a duplicate exactly
 * when an event counted with it has a timestamp within the horizon ({@code t > T - H - 1}), whatever
 * the horizon, in-memory part and lateness were when it was counted, across horizon changes (longer
 * ones remember again the ids the reservoir still holds; here it holds every event) and checkpoints
 * restored with other settings. Ids are drawn from a small pool so that the same id is counted again
 * soon after it is forgotten: the histories where a lengthened horizon holds two copies of an id.
 *
 * <p>With the reservoir trimmed as a task trims it, a shorter horizon lets events go that a later,
 * longer one would cover again: then an id must be a duplicate when a copy the reservoir still
 * holds is within the horizon, must be new when no copy is, and may be either otherwise.
 */
class DedupIdsModelTest {
    private static long widened; // hot horizons widened back, over the runs of a test
    private static final Schema SCHEMA = schema(FieldType.LONG);
    private static final Schema STRING_SCHEMA = schema(FieldType.STRING);

    private static Schema schema(FieldType idType) {
        Map<String, FieldType> f = new LinkedHashMap<>();
        f.put("id", idType);
        f.put("ts", FieldType.TIMESTAMP);
        return Schema.of(f);
    }

    /** A counted event; {@code gone} once the reservoir trimmed it. */
    private static final class Counted {
        final long id;
        final long ts;
        boolean gone;

        Counted(long id, long ts) {
            this.id = id;
            this.ts = ts;
        }
    }

    @Test
    void durableIdsMatchTheModel() {
        for (int seed = 0; seed < 3_000; seed++) {
            run(seed, true, false);
        }
    }

    /**
     * Durable ids in a node's pool of hot ids: all in memory until the pool is passed (a neighbour
     * task's bytes push it over at random points, or a pool of 0 at the first step), then the cold
     * tier is activated mid-history, the horizon's ids read back from the reservoir; while the pool
     * stays passed, each step narrows the hot horizon (down to the lateness), spilling the ids it
     * leaves and reading the rest back into a fresh index, and a restore keeps it narrowed; once the
     * neighbour leaves room, it is widened back, the ids it takes back read from the reservoir.
     */
    @Test
    void durableIdsInAPoolMatchTheModel() {
        long narrowings = 0;
        widened = 0;
        for (int seed = 0; seed < 3_000; seed++) {
            narrowings += run(seed, true, seed % 2 == 0, seed % 3 == 0, true);
        }
        System.out.printf("[dedup ids model] %,d narrowings, %,d widenings%n", narrowings, widened);
        assertThat(narrowings).as("hot horizons narrowed in all").isGreaterThan(1_000);
        assertThat(widened).as("hot horizons widened back in all").isGreaterThan(100);
    }

    @Test
    void inMemoryIdsMatchTheModel() {
        for (int seed = 0; seed < 1_000; seed++) {
            run(seed, false, false);
        }
    }

    @Test
    void durableIdsOverATrimmedReservoirMatchTheModel() {
        for (int seed = 0; seed < 10_000; seed++) {
            run(seed, true, true, false);
        }
    }

    /** String ids of 2 to 80 bytes: a restore meets ids longer than any the new task encoded. */
    @Test
    void durableStringIdsOverATrimmedReservoirMatchTheModel() {
        for (int seed = 0; seed < 3_000; seed++) {
            run(seed, true, true, true);
        }
    }

    private static void run(int seed, boolean durable, boolean trim) {
        run(seed, durable, trim, false);
    }

    /** The string id of pool entry {@code n}: every third one long (past the 64-byte buffer ids start in). */
    private static String stringId(long n) {
        return n % 3 == 0 ? "L".repeat((int) (60 + n)) + n : "s" + n;
    }

    private static void run(int seed, boolean durable, boolean trim, boolean strings) {
        run(seed, durable, trim, strings, false);
    }

    /** Returns the times the hot horizon was narrowed. */
    private static long run(int seed, boolean durable, boolean trim, boolean strings, boolean pooled) {
        SplittableRandom r = new SplittableRandom(seed);
        // a pool the task's fresh index (about 73 KB) holds more than half of: passed when the
        // neighbour reports its bytes; or, one run in four, a pool of 0, passed at once
        HotIdPool pool = pooled ? new HotIdPool(r.nextInt(4) == 0 ? 0 : 100_000) : null;
        HotIdPool.Share neighbour = pool == null ? null : pool.join();
        EventRowWriter w = new EventRowWriter();
        InMemoryReservoir reservoir = new InMemoryReservoir();
        MapColdKeys store = durable ? new MapColdKeys() : null;
        List<Counted> counted = new ArrayList<>();
        StringBuilder log = new StringBuilder();
        long hot = hotPart(r);
        long h = horizon(r);
        long lateness = lateness(r, h);
        DedupIds ids = new DedupIds(reservoir, 0, strings, "id", store, hot, pool);
        ids.hotHorizon().narrowAbove(0); // (these indexes of a few ids are fresh ones: narrowed all the same)
        long narrowings = 0;
        ids.setHorizon(h, lateness);
        log.append(pool == null ? "" : "pool " + pool.limitBytes() + " ").append("hot ").append(hot).append(" H ").append(h).append(" late ").append(lateness);
        long time = Long.MIN_VALUE;
        long seq = 0;
        int idPool = 3 + r.nextInt(12);
        for (int step = 0; step < 250; step++) {
            int op = r.nextInt(100);
            if (op < 4) {
                h = horizon(r);
                lateness = lateness(r, h);
                ids.setHorizon(h, lateness);
                log.append(" | H ").append(h).append(" late ").append(lateness);
            } else if (op < 7 && store != null) {
                ids.markCheckpoint();
                narrowings += ids.hotHorizon().narrowings();
                widened += ids.hotHorizon().widenings();
                ids.close();
                hot = hotPart(r);
                h = horizon(r);
                lateness = lateness(r, h);
                ids = new DedupIds(reservoir, 0, strings, "id", store, hot, pool);
                ids.hotHorizon().narrowAbove(0);
                ids.restore(time, h, lateness);
                log.append(" | restore hot ").append(hot).append(" H ").append(h).append(" late ").append(lateness);
            } else if (op < 9 && neighbour != null) {
                long bytes = r.nextInt(3) == 0 ? 200_000 : 0;
                neighbour.report(bytes);
                log.append(" | neighbour ").append(bytes);
            } else {
                long id = r.nextInt(idPool);
                long ts;
                if (time == Long.MIN_VALUE) {
                    ts = 1_000;
                } else if (lateness > 0 && r.nextInt(5) == 0) {
                    ts = time - r.nextLong(lateness + 1); // late, still accepted
                } else {
                    ts = time + (r.nextInt(20) == 0 ? r.nextLong(400) : r.nextLong(12));
                }
                long boundary = time - h; // remembered: counted at or after it (T before this event)
                boolean mustBeNew = counted.stream().noneMatch(c -> c.id == id && c.ts >= boundary);
                boolean mustBeDuplicate = counted.stream().anyMatch(c -> c.id == id && c.ts >= boundary && !c.gone);
                if (strings) {
                    w.begin(STRING_SCHEMA).setString(0, stringId(id)).setLong(1, ts);
                } else {
                    w.begin(SCHEMA).setLong(0, id).setLong(1, ts);
                }
                w.finish();
                boolean actual = ids.isNew(w.row());
                log.append(" | ").append(id).append('@').append(ts);
                if (mustBeNew || mustBeDuplicate) {
                    assertThat(actual).as("seed %d, %s%s: id %d at %d (T %d, H %d); history %s", seed,
                            durable ? "durable" : "in memory", trim ? ", trimmed" : "", id, ts, time, h, log)
                            .isEqualTo(mustBeNew);
                }
                if (actual) {
                    ids.remember(ts);
                    reservoir.insert(ts, seq++, w.row());
                    counted.add(new Counted(id, ts));
                    log.append('+');
                    if (time == Long.MIN_VALUE || ts > time) {
                        time = ts;
                        ids.advance(time);
                        if (trim) {
                            reservoir.advanceWatermark(time - lateness);
                            reservoir.trim();
                            trimmed(counted, reservoir.size());
                        }
                    }
                }
            }
        }
        narrowings += ids.hotHorizon().narrowings();
        widened += ids.hotHorizon().widenings();
        ids.close();
        return narrowings;
    }

    /** Marks gone the events trim dropped: the first of those held, in (timestamp, arrival) order. */
    private static void trimmed(List<Counted> counted, long held) {
        List<Counted> left = new ArrayList<>(counted.stream().filter(c -> !c.gone).toList());
        left.sort(Comparator.comparingLong((Counted c) -> c.ts)); // stable: arrival order within a timestamp
        for (int i = 0; i < left.size() - held; i++) {
            left.get(i).gone = true;
        }
    }

    private static long hotPart(SplittableRandom r) {
        return r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(60);
    }

    private static long horizon(SplittableRandom r) {
        return 5 + r.nextInt(150);
    }

    private static long lateness(SplittableRandom r, long h) {
        return r.nextInt(2) == 0 ? r.nextLong(Math.min(h, 30) + 1) : 0;
    }
}
