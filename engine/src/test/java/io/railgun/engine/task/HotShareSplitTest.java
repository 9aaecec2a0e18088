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
 * One task of a 64 MiB budget with two key tables, 60,000 cards and 40 merchants: the merchants'
 * table wants little of the task's hot share, so the cards' table gets most of it instead of half
 * (at their measured size, half would hold 32,768 cards and evict; most holds them all), and the
 * merchants' table, growing, still gets what it needs. Every reply of both statements equals an
 * exact oracle.
 */
class HotShareSplitTest {
    private static final int CARDS = 60_000;
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

    private final EventRowWriter w = new EventRowWriter();

    @Test
    void aSmallKeyTableLeavesItsPartToALargeOne() throws Exception {
        Path dir = Files.createTempDirectory("railgun-hot-share");
        try (StateMemory memory = new StateMemory(StateMemory.MIN_BYTES)) {
            TaskStorage storage = TaskStorage.in(dir).withCheckpointIntervalMs(200)
                    .withState(DurableStateOptions.defaults().withHotKeys(Integer.MAX_VALUE).withMemory(memory));
            try (TaskProcessor task = TaskProcessor.open(STREAM, TaskOptions.defaults(), storage)) {
                task.addMetrics(StatementBinder.bind(STREAM, QueryParser.parse(
                        "SELECT SUM(amount) AS s, COUNT(*) AS n FROM payments GROUP BY card [RANGE 1 HOUR]"), Set.of()));
                task.addMetrics(StatementBinder.bind(STREAM, QueryParser.parse(
                        "SELECT COUNT(*) AS m FROM payments GROUP BY merchant [RANGE 1 HOUR]"), Set.of()));
                Map<String, long[]> cards = new HashMap<>();
                Map<String, long[]> merchants = new HashMap<>();
                SplittableRandom random = new SplittableRandom(11);
                long start = 1_700_000_000_000L;
                int events = 2 * CARDS;
                for (int i = 0; i < events; i++) {
                    // every card once in the first half, so all 60,000 are live; merchants come one by one
                    String card = "card-" + (i < CARDS ? i : random.nextInt(CARDS));
                    String merchant = "merchant-" + random.nextInt(1 + Math.min(MERCHANTS - 1, i / 3_000));
                    long amount = random.nextInt(10_000);
                    long[] c = cards.computeIfAbsent(card, k -> new long[2]);
                    c[0] += amount;
                    c[1]++;
                    long[] m = merchants.computeIfAbsent(merchant, k -> new long[1]);
                    m[0]++;
                    Reply r = task.process(row(i, start + i, card, merchant, amount), i);
                    assertThat(r.status()).isEqualTo(ReplyStatus.COUNTED);
                    assertThat(r.longValue(0)).as("sum of %s", card).isEqualTo(c[0]);
                    assertThat(r.longValue(1)).as("count of %s", card).isEqualTo(c[1]);
                    assertThat(r.longValue(2)).as("count of %s", merchant).isEqualTo(m[0]);
                }
                long perKey = task.durableState().hotBytesPerKey();
                long half = Long.highestOneBit(memory.hotBytesPerTask() / 2 / perKey);
                System.out.printf("[hot share split] %,d B a key; half the share would hold %,d keys; the cards' table's"
                                + " limit %,d; %,d hot keys, %,d evictions%n",
                        perKey, half, task.durableState().hotKeyLimit(), task.hotKeys(), task.evictions());
                assertThat(half).as("the test's premise: half the share holds fewer keys than the cards").isLessThan(CARDS);
                assertThat(task.durableState().hotKeyLimit()).isGreaterThan((int) half);
                assertThat(task.hotKeys()).as("every card and merchant hot").isEqualTo(CARDS + MERCHANTS);
                assertThat(task.evictions()).isZero();
            }
        } finally {
            TaskSnapshot.deleteTree(dir);
        }
    }

    private EventRow row(long id, long ts, String card, String merchant, long amount) {
        w.begin(SCHEMA).setLong(0, id).setLong(1, ts).setString(2, card).setString(3, merchant).setLong(4, amount);
        w.finish();
        return w.row();
    }
}
