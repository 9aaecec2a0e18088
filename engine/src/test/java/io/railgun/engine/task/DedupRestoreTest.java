package io.railgun.engine.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.query.QueryParser;
import io.railgun.engine.plan.StatementBinder;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.snapshot.TaskSnapshot;
import io.railgun.engine.state.durable.DurableStateOptions;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Restoring a task with a 180-day dedup horizon: with the dedup ids' cold tier (one day of ids in
 * memory, the rest in RocksDB with the checkpoint) the restore reads back from the reservoir only
 * the last day's events, against every event of the 180 days when all ids are in memory (the
 * behaviour before the tier). Both must still recognise a re-sent id from any day of the horizon,
 * and forget the ids that leave it. Prints time and heap of each restore.
 */
class DedupRestoreTest {
    private static final long DAY = 86_400_000L;
    private static final int EVENTS = 360_000; // 2,000 a day
    private static final long START = 1_700_000_000_000L;
    private static final Schema SCHEMA;

    static {
        Map<String, FieldType> f = new LinkedHashMap<>();
        f.put("id", FieldType.STRING);
        f.put("ts", FieldType.TIMESTAMP);
        f.put("card", FieldType.STRING);
        f.put("amount", FieldType.DOUBLE);
        SCHEMA = Schema.of(f);
    }

    private static final StreamDefinition STREAM = new StreamDefinition("payments", SCHEMA, "id", "ts", List.of("card"), 1,
            0, LateEventPolicy.DROP);

    private final Path dir = tempDir();
    private final EventRowWriter w = new EventRowWriter();

    @AfterEach
    void cleanUp() throws IOException {
        TaskSnapshot.deleteTree(dir);
    }

    @Test
    void aTaskWithA180DayHorizonRestoresOnlyTheHotIds() throws Exception {
        long[] allHot = fillAndRestore(dir.resolve("hot"), 365 * DAY);
        long[] cold = fillAndRestore(dir.resolve("cold"), DurableStateOptions.DEFAULT_DEDUP_HOT_MS);
        System.out.printf("[dedup restore, 180-day horizon, %,d ids] all ids in memory: %,d ms, %,d ids in memory,"
                        + " heap +%,d KiB; cold tier (1 day hot): %,d ms, %,d ids in memory, heap +%,d KiB%n", EVENTS,
                allHot[0], allHot[1], allHot[2] / 1024, cold[0], cold[1], cold[2] / 1024);
        assertThat(allHot[1]).as("ids in memory, all hot").isEqualTo(EVENTS);
        assertThat(cold[1]).as("ids in memory with the cold tier: about one day's").isBetween(1_900L, 2_100L);
    }

    /** Fills a task with 180 days of events, closes it, reopens it; returns restore ms, hot ids, heap growth. */
    private long[] fillAndRestore(Path where, long dedupHotMs) throws Exception {
        TaskStorage storage = TaskStorage.in(where)
                .withState(DurableStateOptions.defaults().withDedupHotMs(dedupHotMs).withWriteBufferBytes(8L << 20));
        long last = START + (EVENTS - 1) * (180 * DAY / EVENTS);
        try (TaskProcessor task = TaskProcessor.open(STREAM, TaskOptions.defaults(), storage)) {
            task.addMetrics(StatementBinder.bind(STREAM,
                    QueryParser.parse("SELECT COUNT(*) AS n FROM payments GROUP BY card [RANGE 180 DAYS]"), Set.of()));
            for (int i = 0; i < EVENTS; i++) {
                assertThat(task.process(row("e" + i, START + i * (180 * DAY / EVENTS)), i).status())
                        .isEqualTo(ReplyStatus.COUNTED);
            }
            assertThat(task.process(row("e0", last), EVENTS).status()).as("the first id, still within the horizon")
                    .isEqualTo(ReplyStatus.DUPLICATE);
        }
        // the fastest of three restores (the first pays for class loading and JIT), then a fourth kept open
        long ms = Long.MAX_VALUE;
        for (int k = 0; k < 3; k++) {
            long start = System.nanoTime();
            TaskProcessor.open(STREAM, TaskOptions.defaults(), storage).abandon();
            ms = Math.min(ms, (System.nanoTime() - start) / 1_000_000);
        }
        long heapBefore = usedHeap();
        TaskProcessor restored = TaskProcessor.open(STREAM, TaskOptions.defaults(), storage);
        long heap = usedHeap() - heapBefore;
        try (restored) {
            long hotIds = restored.stats().dedupHotIds();
            long offset = restored.resumeOffset();
            // re-sent ids of the first, a middle and the last day: duplicates, whichever tier holds them
            for (int i : new int[] {0, 1, 500, EVENTS / 2, EVENTS - 4_000, EVENTS - 1}) {
                assertThat(restored.process(row("e" + i, last), offset++).status()).as("id e%d re-sent", i)
                        .isEqualTo(ReplyStatus.DUPLICATE);
            }
            assertThat(restored.process(row("new", last), offset++).status()).isEqualTo(ReplyStatus.COUNTED);
            // a day later (the stream time moved by an event; ids are checked against the stream time before
            // their event) the first day's ids have left the horizon: e0 counts again, e1999 (day 1) too
            long later = last + DAY + 1;
            assertThat(restored.process(row("next-day", later), offset++).status()).isEqualTo(ReplyStatus.COUNTED);
            assertThat(restored.process(row("e0", later), offset++).status()).isEqualTo(ReplyStatus.COUNTED);
            assertThat(restored.process(row("e1999", later), offset++).status()).isEqualTo(ReplyStatus.COUNTED);
            assertThat(restored.process(row("e" + (EVENTS - 1), later), offset++).status())
                    .isEqualTo(ReplyStatus.DUPLICATE);
            return new long[] {ms, hotIds, heap};
        }
    }

    private EventRow row(String id, long ts) {
        w.begin(SCHEMA).setString(0, id).setLong(1, ts).setString(2, "c" + (id.hashCode() & 1023)).setDouble(3, 1.0);
        w.finish();
        return w.row();
    }

    private static long usedHeap() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("railgun-dedup-restore");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
