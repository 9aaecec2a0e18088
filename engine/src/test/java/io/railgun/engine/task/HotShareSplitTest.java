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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * An 80 MiB budget, 100,000 cards and 40 merchants, in one task with two key tables and in two
 * tasks (one partitioned by card, one by merchant, as a node runs a stream partitioned by both):
 * the merchants want little of the hot share, so the cards get most of it instead of half (at
 * their measured size, half would hold 70-88 k cards and evict; most holds them all), and the
 * merchants, growing, still get what they need. Every reply equals an exact oracle.
 */
class HotShareSplitTest {
    private static final int CARDS = 100_000;
    /** 80 MiB: at the cards' measured size (190-240 B) half the hot share holds 70-88 k, all of it 139-176 k. */
    private static final long BUDGET = 80L << 20;
    private static final int MERCHANTS = 40;
    private static final Schema SCHEMA;

    static {
        Map<String, FieldType> f = new LinkedHashMap<>();
        f.put("id", FieldType.LONG);
        f.put("ts", FieldType.TIMESTAMP);
        f.put("card", FieldType.STRING);
        f.put("merchant", FieldType.STRING);
        f.put("amount", FieldType.LONG);
        SCHEMA = Schema.of(f);
    }

    private static final StreamDefinition STREAM = new StreamDefinition("payments", SCHEMA, "id", "ts",
            List.of("card", "merchant"), 1, 0, LateEventPolicy.DROP);
    private static final StreamDefinition BY_MERCHANT = new StreamDefinition("shops", SCHEMA, "id", "ts",
            List.of("merchant"), 1, 0, LateEventPolicy.DROP);

    private final EventRowWriter w = new EventRowWriter();

    @Test
    void aSmallKeyTableLeavesItsPartToALargeOne() throws Exception {
        run(false);
    }

    @Test
    void aSmallTaskLeavesItsPartToALargeOne() throws Exception {
        run(true);
    }

    private void run(boolean twoTasks) throws Exception {
        Path dir = Files.createTempDirectory("railgun-hot-share");
        try (StateMemory memory = new StateMemory(BUDGET);
             TaskProcessor cardTask = TaskProcessor.open(STREAM, TaskOptions.defaults(), storage(dir.resolve("a"), memory));
             TaskProcessor merchantTask = twoTasks
                     ? TaskProcessor.open(BY_MERCHANT, TaskOptions.defaults(), storage(dir.resolve("b"), memory)) : null) {
            cardTask.addMetrics(StatementBinder.bind(STREAM, QueryParser.parse(
                    "SELECT SUM(amount) AS s, COUNT(*) AS n FROM payments GROUP BY card [RANGE 1 HOUR]"), Set.of()));
            TaskProcessor merchants = twoTasks ? merchantTask : cardTask;
            StreamDefinition merchantStream = twoTasks ? BY_MERCHANT : STREAM;
            merchants.addMetrics(StatementBinder.bind(merchantStream, QueryParser.parse(
                    "SELECT COUNT(*) AS m FROM " + merchantStream.name() + " GROUP BY merchant [RANGE 1 HOUR]"), Set.of()));
            Map<String, long[]> cardOracle = new HashMap<>();
            Map<String, long[]> merchantOracle = new HashMap<>();
            SplittableRandom random = new SplittableRandom(11);
            long start = 1_700_000_000_000L;
            for (int i = 0; i < 2 * CARDS; i++) {
                // every card once in the first half, so all 100,000 are live; merchants come one by one
                String card = "card-" + (i < CARDS ? i : random.nextInt(CARDS));
                String merchant = "merchant-" + random.nextInt(1 + Math.min(MERCHANTS - 1, i / 3_000));
                long amount = random.nextInt(10_000);
                long[] c = cardOracle.computeIfAbsent(card, k -> new long[2]);
                c[0] += amount;
                c[1]++;
                long[] m = merchantOracle.computeIfAbsent(merchant, k -> new long[1]);
                m[0]++;
                EventRow row = row(i, start + i, card, merchant, amount);
                Reply r = cardTask.process(row, i);
                assertThat(r.status()).isEqualTo(ReplyStatus.COUNTED);
                assertThat(r.longValue(0)).as("sum of %s", card).isEqualTo(c[0]);
                assertThat(r.longValue(1)).as("count of %s", card).isEqualTo(c[1]);
                if (twoTasks) {
                    r = merchantTask.process(row(i, start + i, card, merchant, amount), i);
                    assertThat(r.status()).isEqualTo(ReplyStatus.COUNTED);
                }
                assertThat(r.longValue(twoTasks ? 0 : 2)).as("count of %s", merchant).isEqualTo(m[0]);
            }
            long perKey = cardTask.durableState().hotBytesPerKey();
            long half = memory.hotBytes() / 2 / perKey;
            long hot = cardTask.stats().hotKeys() + (twoTasks ? merchantTask.stats().hotKeys() : 0);
            System.out.printf("[hot share split] %s: %,d B a card; half the share would hold %,d cards; the cards' limit %,d;"
                            + " %,d hot keys, %,d evictions%n", twoTasks ? "two tasks" : "two key tables", perKey, half,
                    cardTask.durableState().hotKeyLimit(), hot, cardTask.stats().evictions());
            assertThat(half).as("the test's premise: half the share holds fewer keys than the cards").isLessThan(CARDS);
            assertThat(cardTask.durableState().hotKeyLimit()).isGreaterThan((int) half);
            assertThat(hot).as("every card and merchant hot").isEqualTo(CARDS + MERCHANTS);
            assertThat(cardTask.stats().evictions()).isZero();
        } finally {
            TaskSnapshot.deleteTree(dir);
        }
    }

    /**
     * Merchants seen once each, in a one-second window, so each empties a second after it came and
     * stays hot, emptied (no checkpoint sweeps them: the interval is an hour): they take room only
     * while nothing else wants it, so the cards still get most of the share and none is evicted.
     * Were emptied keys counted in what their table wants, the merchants' table would ask for four
     * times its ever-growing hot keys and take the cards' room.
     */
    @Test
    void emptiedKeysDoNotTakeTheirTablesPart() throws Exception {
        Path dir = Files.createTempDirectory("railgun-hot-share");
        try (StateMemory memory = new StateMemory(BUDGET);
             TaskProcessor task = TaskProcessor.open(STREAM, TaskOptions.defaults(),
                     TaskStorage.in(dir).withCheckpointIntervalMs(3_600_000).withState(DurableStateOptions.defaults()
                             .withHotKeys(Integer.MAX_VALUE).withMemory(memory)))) {
            task.addMetrics(StatementBinder.bind(STREAM, QueryParser.parse(
                    "SELECT SUM(amount) AS s FROM payments GROUP BY card [RANGE 1 HOUR]"), Set.of()));
            task.addMetrics(StatementBinder.bind(STREAM, QueryParser.parse(
                    "SELECT COUNT(*) AS m FROM payments GROUP BY merchant [RANGE 1 SECOND]"), Set.of()));
            Map<String, long[]> cardOracle = new HashMap<>();
            SplittableRandom random = new SplittableRandom(13);
            long start = 1_700_000_000_000L;
            for (int i = 0; i < 2 * CARDS; i++) {
                String card = "card-" + (i < CARDS ? i : random.nextInt(CARDS));
                long amount = random.nextInt(10_000);
                long[] c = cardOracle.computeIfAbsent(card, k -> new long[1]);
                c[0] += amount;
                Reply r = task.process(row(i, start + i, card, "merchant-" + i, amount), i);
                assertThat(r.status()).isEqualTo(ReplyStatus.COUNTED);
                assertThat(r.longValue(0)).as("sum of %s", card).isEqualTo(c[0]);
                assertThat(r.longValue(1)).as("count of merchant-%d", i).isEqualTo(1);
            }
            long half = memory.hotBytes() / 2 / task.durableState().hotBytesPerKey();
            System.out.printf("[hot share split] emptied merchants: the cards' limit %,d (half the share %,d), %,d hot keys,"
                            + " %,d evictions%n", task.durableState().hotKeyLimit(), half, task.stats().hotKeys(),
                    task.stats().evictions());
            assertThat(task.durableState().hotKeyLimit()).isGreaterThan((int) half);
            assertThat(task.stats().evictions()).as("no card evicted").isZero();
        } finally {
            TaskSnapshot.deleteTree(dir);
        }
    }

    /**
     * What a hot key is counted to cost includes its copy in a checkpoint. A key whose wide nodes
     * are empty (FRAUD's cards: events in the 180-day window, none in the 5-minute one) serialises
     * to a fraction of its records, so its records cannot stand in for the copy: FRAUD's card table
     * kept such a stand-in's limit, 328,714 keys instead of about 460,000, through a whole benchmark
     * run, and later 309,280 until the first checkpoint's keys were saved, evicting 161 k keys it
     * loaded back afterwards. Before any checkpoint a sample of the keys measures the copy (439 B a
     * key here, 437 B once measured, on 2026-12-02); the first checkpoint's keys, once all saved, set
     * it at once.
     */
    @Test
    void theFirstCheckpointsKeysSetTheCopySize() throws Exception {
        Path dir = Files.createTempDirectory("railgun-copy-size");
        try (StateMemory memory = new StateMemory(64L << 20);
             TaskProcessor task = TaskProcessor.open(STREAM, TaskOptions.defaults(),
                     TaskStorage.in(dir).withCheckpointIntervalMs(3_600_000).withState(DurableStateOptions.defaults()
                             .withHotKeys(Integer.MAX_VALUE).withMemory(memory)))) {
            // a wide node of a second (AVG, MAX, STDDEV: some 30 longs a key) and a narrow one of an hour
            task.addMetrics(StatementBinder.bind(STREAM, QueryParser.parse(
                    "SELECT SUM(amount) AS s, AVG(amount) AS a, MAX(amount) AS x, STDDEV_SAMP(amount) AS sd"
                            + " FROM payments GROUP BY card [RANGE 1 SECOND]"), Set.of()));
            task.addMetrics(StatementBinder.bind(STREAM, QueryParser.parse(
                    "SELECT COUNT(*) AS n FROM payments GROUP BY card [RANGE 1 HOUR]"), Set.of()));
            long start = 1_700_000_000_000L;
            int cards = 20_000;
            for (int i = 0; i < cards; i++) {
                Reply r = task.process(row(i, start + i, "card-" + i, "merchant-0", i % 1000), i);
                assertThat(r.status()).isEqualTo(ReplyStatus.COUNTED);
            }
            // the seconds' nodes empty: every card holds one event, in the hour's window only
            Reply r = task.process(row(cards, start + cards + 2_000, "card-0", "merchant-0", 1), cards);
            assertThat(r.longValue(4)).as("card-0's hour").isEqualTo(2);
            long sampled = task.durableState().hotBytesPerKey();
            int limitBefore = task.durableState().hotKeyLimit();

            task.checkpoint().join(); // taken whole at once: every key serialised, no event after

            long measured = task.durableState().hotBytesPerKey();
            System.out.printf("[copy size] a hot key: %,d B with its copy sampled, %,d B once measured; limit %,d -> %,d%n",
                    sampled, measured, limitBefore, task.durableState().hotKeyLimit());
            assertThat(measured).as("a key's cost once its copies were measured").isLessThan(500);
            assertThat(sampled).as("a key's cost with its copy sampled").isBetween(measured * 9 / 10, measured * 11 / 10);
            assertThat(task.durableState().hotKeyLimit()).isBetween(limitBefore * 9 / 10, limitBefore * 11 / 10);
        } finally {
            TaskSnapshot.deleteTree(dir);
        }
    }

    private static TaskStorage storage(Path dir, StateMemory memory) {
        return TaskStorage.in(dir).withCheckpointIntervalMs(200)
                .withState(DurableStateOptions.defaults().withHotKeys(Integer.MAX_VALUE).withMemory(memory));
    }

    private EventRow row(long id, long ts, String card, String merchant, long amount) {
        w.begin(SCHEMA).setLong(0, id).setLong(1, ts).setString(2, card).setString(3, merchant).setLong(4, amount);
        w.finish();
        return w.row();
    }
}
