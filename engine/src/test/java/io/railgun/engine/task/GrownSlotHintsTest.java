package io.railgun.engine.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.plan.MetricDefinition;
import io.railgun.engine.plan.StatementBinder;
import io.railgun.engine.query.QueryParser;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.state.durable.DurableStateOptions;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tails longer than the slot hints' first ring (16 Ki events: 30 minutes, a 5-minute window delayed
 * 20, one hour filtered, here 33-65 k events behind) make the hints grow, in memory and in a durable
 * task whose small hot tier evicts and loads keys all along; the two tasks' replies must agree at
 * every event (late events rewritten, skewed cards). The {@code *Oracle*} tests never reach a grown
 * ring (a few hundred events a case).
 */
class GrownSlotHintsTest {
    static final Schema SCHEMA;
    static {
        Map<String, FieldType> f = new LinkedHashMap<>();
        f.put("id", FieldType.LONG);
        f.put("ts", FieldType.TIMESTAMP);
        f.put("card", FieldType.STRING);
        f.put("amount", FieldType.LONG);
        SCHEMA = Schema.of(f);
    }
    static final StreamDefinition STREAM = new StreamDefinition("p", SCHEMA, "id", "ts", List.of("card"), 1, 2_000,
            LateEventPolicy.REWRITE);
    static final List<String> SQL = List.of(
            "SELECT SUM(amount) AS s, COUNT(*) AS n FROM p GROUP BY card [RANGE 30 MINUTES]",
            "SELECT MAX(amount) AS mx FROM p GROUP BY card [RANGE 5 MINUTES DELAY 20 MINUTES]",
            "SELECT COUNT(*) AS n2 FROM p WHERE amount > 900 GROUP BY card [RANGE 1 HOUR]");

    final EventRowWriter w = new EventRowWriter();

    @TempDir
    Path dir;

    static void add(TaskProcessor t) throws Exception {
        Set<String> names = new HashSet<>();
        for (String sql : SQL) {
            List<MetricDefinition> d = StatementBinder.bind(STREAM, QueryParser.parse(sql), names);
            d.forEach(x -> names.add(x.name()));
            t.addMetrics(d);
        }
    }

    static Object get(Object o, String name) throws Exception {
        for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(o);
            } catch (NoSuchFieldException e) {
                // up
            }
        }
        throw new NoSuchFieldException(name);
    }

    /** The entries of each key table's slot hints (by reflection: no API exposes them). */
    static List<Integer> hintSizes(TaskProcessor t) throws Exception {
        Map<?, ?> tables = (Map<?, ?>) get(get(get(t, "plan"), "tables"), "byFields");
        List<Integer> sizes = new ArrayList<>();
        for (Object kt : tables.values()) {
            Object h = get(kt, "hints");
            var m = h.getClass().getDeclaredMethod("size");
            m.setAccessible(true);
            sizes.add((Integer) m.invoke(h));
        }
        return sizes;
    }

    @Test
    void durableAndMemoryAgreeWithGrownHints() throws Exception {
        TaskStorage storage = TaskStorage.in(dir).withState(DurableStateOptions.defaults().withHotKeys(17_000)
                .withWriteBufferBytes(256 * 1024).withSnapshotKeysPerEvent(7)).withCheckpointIntervalMs(200);
        SplittableRandom r = new SplittableRandom(5);
        long ts = 1_700_000_000_000L;
        int events = 160_000;
        try (TaskProcessor durable = TaskProcessor.open(STREAM, TaskOptions.defaults(), storage);
             TaskProcessor memory = new TaskProcessor(STREAM, TaskOptions.defaults())) {
            add(durable);
            add(memory);
            for (int i = 0; i < events; i++) {
                ts += r.nextInt(120); // ~55 ms apart: 30 min ~ 33 k events, 1 h ~ 65 k
                long t = r.nextInt(10) == 0 ? ts - r.nextInt(3_000) : ts;
                String card = "c" + (r.nextInt(4) == 0 ? r.nextInt(200) : r.nextInt(40_000));
                w.begin(SCHEMA).setLong(0, i).setLong(1, t).setString(2, card).setLong(3, r.nextInt(1000)).finish();
                Reply a = durable.process(w.row());
                Reply b = memory.process(w.row());
                assertThat(a.status()).isEqualTo(b.status());
                for (int k = 0; k < a.size(); k++) {
                    assertThat(a.value(k)).as("event %d %s", i, a.name(k)).isEqualTo(b.value(k));
                }
            }
            assertThat(hintSizes(memory)).as("the in-memory task's rings").anyMatch(n -> n > (1 << 14));
            assertThat(hintSizes(durable)).as("the durable task's rings").anyMatch(n -> n > (1 << 14));
            assertThat(durable.evictions()).as("keys evicted from the durable task's hot tier").isPositive();
            assertThat(durable.coldLoads()).as("keys loaded back").isPositive();
        }
    }
}
