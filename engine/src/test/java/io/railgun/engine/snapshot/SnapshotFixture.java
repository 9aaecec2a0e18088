package io.railgun.engine.snapshot;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.plan.MetricDefinition;
import io.railgun.engine.plan.StatementBinder;
import io.railgun.engine.query.QueryParser;
import io.railgun.engine.reservoir.disk.DiskReservoirOptions;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.state.durable.DurableStateOptions;
import io.railgun.engine.task.Reply;
import io.railgun.engine.task.TaskProcessor;
import io.railgun.engine.task.TaskStorage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Test fixture of snapshot and peer-recovery tests (engine and node): a payments stream with an
 * unbounded count and sum per card (checked against brute force) and a 10-minute windowed sum and
 * max, small reservoir segments (many files) and frequent checkpoints. Not thread-safe: one per
 * task thread.
 */
public final class SnapshotFixture {
    public static final Schema SCHEMA;

    static {
        Map<String, FieldType> f = new LinkedHashMap<>();
        f.put("id", FieldType.LONG);
        f.put("ts", FieldType.TIMESTAMP);
        f.put("card", FieldType.STRING);
        f.put("amount", FieldType.DOUBLE);
        SCHEMA = Schema.of(f);
    }

    public static final StreamDefinition STREAM = new StreamDefinition("payments", SCHEMA, "id", "ts", List.of("card"), 1,
            1_000, LateEventPolicy.REWRITE);
    public static final List<String> STATEMENTS = List.of(
            "SELECT COUNT(*) AS n, SUM(amount) AS s FROM payments GROUP BY card [RANGE UNBOUNDED]",
            "SELECT SUM(amount) AS s10, MAX(amount) AS mx FROM payments GROUP BY card [RANGE 10 MINUTES]");

    private final EventRowWriter w = new EventRowWriter();

    /** {@code events} events: id, timestamp (increasing), card number (of 500), whole amount. */
    public static List<long[]> input(int events, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<long[]> input = new ArrayList<>();
        long ts = 1_700_000_000_000L;
        for (int i = 0; i < events; i++) {
            ts += random.nextInt(200);
            input.add(new long[] {i, ts, random.nextInt(500), random.nextInt(1_000)});
        }
        return input;
    }

    public static TaskStorage storage(Path dir) {
        return TaskStorage.in(dir)
                .withReservoir(DiskReservoirOptions.defaults().withChunkTargetBytes(4 * 1024).withSegmentMaxBytes(64 * 1024))
                .withState(DurableStateOptions.defaults().withHotKeys(100).withWriteBufferBytes(32 * 1024))
                .withCheckpointIntervalMs(20);
    }

    public static void addAll(TaskProcessor task) throws Exception {
        Set<String> names = new HashSet<>();
        for (String sql : STATEMENTS) {
            List<MetricDefinition> defs = StatementBinder.bind(STREAM, QueryParser.parse(sql), names);
            defs.forEach(d -> names.add(d.name()));
            task.addMetrics(defs);
        }
    }

    public EventRow row(long[] e) {
        w.begin(SCHEMA).setLong(0, e[0]).setLong(1, e[1]).setString(2, "c" + e[2]).setDouble(3, e[3]);
        w.finish();
        return w.row();
    }

    /** A reply as a list: status, then name and value of each metric. */
    public static List<Object> values(Reply r) {
        List<Object> out = new ArrayList<>();
        out.add(r.status());
        for (int i = 0; i < r.size(); i++) {
            out.add(r.name(i));
            out.add(r.value(i));
        }
        return out;
    }

    public static Object value(List<Object> reply, String name) {
        return reply.get(reply.indexOf(name) + 1);
    }

    /** Brute force: per card, the count and sum of the events [0, end). */
    public static Map<String, long[]> countAndSum(List<long[]> input, int end) {
        Map<String, long[]> m = new HashMap<>();
        for (int i = 0; i < end; i++) {
            add(m, input.get(i));
        }
        return m;
    }

    /** Adds an event to brute-force counts; returns its card's count and sum. */
    public static long[] add(Map<String, long[]> counts, long[] e) {
        long[] cs = counts.computeIfAbsent("c" + e[2], k -> new long[2]);
        cs[0]++;
        cs[1] += e[3];
        return cs;
    }
}
