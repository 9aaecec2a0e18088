package io.railgun.engine.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.plan.StatementBinder;
import io.railgun.engine.query.QueryParser;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.snapshot.TaskSnapshot;
import io.railgun.engine.state.durable.DurableStateOptions;
import io.railgun.engine.state.durable.StateMemory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What a hot key is counted to cost includes its copy in a checkpoint; until a key was serialised,
 * its records stand in for that copy. A key whose wide nodes are empty (FRAUD's cards: events in
 * the 180-day window, none in the 5-minute one) serialises to a fraction of its records, so the
 * first checkpoint's keys, once all saved, must set the copy's size, and the hot keys' limit with
 * it: not a checkpoint interval later (FRAUD's card table kept the stand-in's limit, 328,714 keys
 * instead of about 460,000, through a whole benchmark run).
 */
class HotTierCopySizeTest {
    private static final int CARDS = 20_000;
    private static final Schema SCHEMA;

    static {
        Map<String, FieldType> f = new LinkedHashMap<>();
        f.put("id", FieldType.LONG);
        f.put("ts", FieldType.TIMESTAMP);
        f.put("card", FieldType.STRING);
        f.put("amount", FieldType.DOUBLE);
        SCHEMA = Schema.of(f);
    }

    private static final StreamDefinition STREAM = new StreamDefinition("payments", SCHEMA, "id", "ts",
            List.of("card"), 1, 0, LateEventPolicy.DROP);

    private final EventRowWriter w = new EventRowWriter();

    @Test
    void theFirstCheckpointsKeysSetTheCopySize() throws Exception {
        Path dir = Files.createTempDirectory("railgun-copy-size");
        try (StateMemory memory = new StateMemory(64L << 20);
             TaskProcessor task = TaskProcessor.open(STREAM, TaskOptions.defaults(),
                     TaskStorage.in(dir).withCheckpointIntervalMs(3_600_000).withState(DurableStateOptions.defaults()
                             .withHotKeys(Integer.MAX_VALUE).withMemory(memory)))) {
            // a wide node of a second (SUM/AVG, MAX, STDDEV: some 30 longs a key) and a narrow one of an hour
            task.addMetrics(StatementBinder.bind(STREAM, QueryParser.parse(
                    "SELECT SUM(amount) AS s, AVG(amount) AS a, MAX(amount) AS x, STDDEV_SAMP(amount) AS sd"
                            + " FROM payments GROUP BY card [RANGE 1 SECOND]"), Set.of()));
            task.addMetrics(StatementBinder.bind(STREAM, QueryParser.parse(
                    "SELECT COUNT(*) AS n FROM payments GROUP BY card [RANGE 1 HOUR]"), Set.of()));
            long start = 1_700_000_000_000L;
            for (int i = 0; i < CARDS; i++) {
                Reply r = task.process(row(i, start + i, "card-" + i, i % 1000), i);
                assertThat(r.status()).isEqualTo(ReplyStatus.COUNTED);
            }
            // the seconds' nodes empty: every card holds one event, in the hour's window only
            Reply r = task.process(row(CARDS, start + CARDS + 2_000, "card-0", 1), CARDS);
            assertThat(r.longValue(4)).as("card-0's hour").isEqualTo(2);
            long standIn = task.durableState().hotBytesPerKey();
            int limitBefore = task.durableState().hotKeyLimit();

            task.checkpoint().join(); // taken whole at once: every key serialised, no event after

            long measured = task.durableState().hotBytesPerKey();
            System.out.printf("[copy size] a hot key: %,d B with its records standing in for its copy, %,d B once"
                    + " measured; limit %,d -> %,d%n", standIn, measured, limitBefore, task.durableState().hotKeyLimit());
            assertThat(measured).as("a key's cost once its copies were measured").isLessThan(standIn - 100);
            assertThat(task.durableState().hotKeyLimit()).isGreaterThan(limitBefore);
        } finally {
            TaskSnapshot.deleteTree(dir);
        }
    }

    private EventRow row(long id, long ts, String card, double amount) {
        w.begin(SCHEMA).setLong(0, id).setLong(1, ts).setString(2, card).setDouble(3, amount);
        w.finish();
        return w.row();
    }
}
