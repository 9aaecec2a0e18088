package io.railgun.engine.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.reservoir.InMemoryReservoir;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.state.MapColdKeys;
import java.util.ArrayList;
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
 */
class DedupIdsModelTest {
    private static final Schema SCHEMA;

    static {
        Map<String, FieldType> f = new LinkedHashMap<>();
        f.put("id", FieldType.LONG);
        f.put("ts", FieldType.TIMESTAMP);
        SCHEMA = Schema.of(f);
    }

    private record Counted(long id, long ts) {}

    @Test
    void durableIdsMatchTheModel() {
        for (int seed = 0; seed < 3_000; seed++) {
            run(seed, true);
        }
    }

    @Test
    void inMemoryIdsMatchTheModel() {
        for (int seed = 0; seed < 1_000; seed++) {
            run(seed, false);
        }
    }

    private static void run(int seed, boolean durable) {
        SplittableRandom r = new SplittableRandom(seed);
        EventRowWriter w = new EventRowWriter();
        InMemoryReservoir reservoir = new InMemoryReservoir();
        MapColdKeys store = durable ? new MapColdKeys() : null;
        List<Counted> counted = new ArrayList<>();
        StringBuilder log = new StringBuilder();
        long hot = hotPart(r);
        long h = horizon(r);
        long lateness = lateness(r, h);
        DedupIds ids = new DedupIds(reservoir, 0, false, "id", store, hot);
        ids.setHorizon(h, lateness);
        log.append("hot ").append(hot).append(" H ").append(h).append(" late ").append(lateness);
        long time = Long.MIN_VALUE;
        long seq = 0;
        int pool = 3 + r.nextInt(12);
        for (int step = 0; step < 250; step++) {
            int op = r.nextInt(100);
            if (op < 4) {
                h = horizon(r);
                lateness = lateness(r, h);
                ids.setHorizon(h, lateness);
                log.append(" | H ").append(h).append(" late ").append(lateness);
            } else if (op < 7 && store != null) {
                ids.markCheckpoint();
                ids.close();
                hot = hotPart(r);
                h = horizon(r);
                lateness = lateness(r, h);
                ids = new DedupIds(reservoir, 0, false, "id", store, hot);
                ids.restore(time, h, lateness);
                log.append(" | restore hot ").append(hot).append(" H ").append(h).append(" late ").append(lateness);
            } else {
                long id = r.nextInt(pool);
                long ts;
                if (time == Long.MIN_VALUE) {
                    ts = 1_000;
                } else if (lateness > 0 && r.nextInt(5) == 0) {
                    ts = time - r.nextLong(lateness + 1); // late, still accepted
                } else {
                    ts = time + (r.nextInt(20) == 0 ? r.nextLong(400) : r.nextLong(12));
                }
                long boundary = time - h; // remembered: counted at or after it (T before this event)
                boolean expected = counted.stream().noneMatch(c -> c.id() == id && c.ts() >= boundary);
                w.begin(SCHEMA).setLong(0, id).setLong(1, ts);
                w.finish();
                boolean actual = ids.isNew(w.row());
                log.append(" | ").append(id).append('@').append(ts);
                assertThat(actual).as("seed %d, %s: id %d at %d (T %d, H %d); history %s", seed,
                        durable ? "durable" : "in memory", id, ts, time, h, log).isEqualTo(expected);
                if (actual) {
                    ids.remember(ts);
                    reservoir.insert(ts, seq++, w.row());
                    counted.add(new Counted(id, ts));
                    log.append('+');
                    if (time == Long.MIN_VALUE || ts > time) {
                        time = ts;
                        ids.advance(time);
                    }
                }
            }
        }
        ids.close();
    }

    private static long hotPart(SplittableRandom r) {
        return 1 + r.nextInt(60);
    }

    private static long horizon(SplittableRandom r) {
        return 5 + r.nextInt(150);
    }

    private static long lateness(SplittableRandom r, long h) {
        return r.nextInt(3) == 0 ? r.nextLong(Math.min(h, 30) + 1) : 0;
    }
}
