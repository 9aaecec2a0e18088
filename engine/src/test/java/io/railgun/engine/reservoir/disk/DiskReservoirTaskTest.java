package io.railgun.engine.reservoir.disk;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.plan.MetricDefinition;
import io.railgun.engine.plan.StatementBinder;
import io.railgun.engine.query.QueryParser;
import io.railgun.engine.reservoir.InMemoryReservoir;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.state.InMemoryStateStore;
import io.railgun.engine.task.Reply;
import io.railgun.engine.task.TaskOptions;
import io.railgun.engine.task.TaskProcessor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The task processor over the on-disk reservoir answers exactly as over the in-memory one: late
 * events (rewritten), sliding and delayed windows longer than the chunk cache can hold, many
 * cursors, chunks and files rolling constantly, real writer and reader threads.
 */
class DiskReservoirTaskTest {
    private static final Schema SCHEMA;

    static {
        Map<String, FieldType> f = new LinkedHashMap<>();
        f.put("id", FieldType.LONG);
        f.put("ts", FieldType.TIMESTAMP);
        f.put("card", FieldType.STRING);
        f.put("amount", FieldType.DOUBLE);
        SCHEMA = Schema.of(f);
    }

    private final Path dir = TestRows.tempDir();
    private final ExecutorService writer = Executors.newSingleThreadExecutor();
    private final ExecutorService reader = Executors.newFixedThreadPool(2);

    @AfterEach
    void cleanUp() {
        writer.shutdown();
        reader.shutdown();
        TestRows.deleteRecursively(dir);
    }

    @Test
    void repliesMatchTheInMemoryReservoirs() throws Exception {
        StreamDefinition stream = new StreamDefinition("payments", SCHEMA, "id", "ts", List.of("card"), 1, 2_000,
                LateEventPolicy.REWRITE);
        List<String> statements = List.of(
                "SELECT SUM(amount) AS s1 FROM payments GROUP BY card [RANGE 1 SECOND]",
                "SELECT COUNT(*) AS c10 FROM payments GROUP BY card [RANGE 10 SECONDS]",
                "SELECT MAX(amount) AS m FROM payments GROUP BY card [RANGE 1 MINUTE DELAY 5 SECONDS]",
                "SELECT AVG(amount) AS a FROM payments GROUP BY card [RANGE 3 MINUTES]",
                "SELECT COUNT(*) AS all FROM payments GROUP BY card [RANGE UNBOUNDED]");
        DiskReservoirOptions options = DiskReservoirOptions.defaults().withChunkTargetBytes(2_048)
                .withSegmentMaxBytes(16 * 1024).withCache(3, 1 << 20);
        DiskReservoir disk = DiskReservoir.open(dir, options, writer, reader);
        TaskOptions taskOptions = TaskOptions.defaults().withMinDedupHorizonMs(30_000);
        try (TaskProcessor onDisk = new TaskProcessor(stream, taskOptions, disk, new InMemoryStateStore());
             TaskProcessor inMemory = new TaskProcessor(stream, taskOptions, new InMemoryReservoir(), new InMemoryStateStore())) {
            for (TaskProcessor t : List.of(onDisk, inMemory)) {
                Set<String> names = new HashSet<>();
                for (String sql : statements) {
                    List<MetricDefinition> defs = StatementBinder.bind(stream, QueryParser.parse(sql), names);
                    defs.forEach(d -> names.add(d.name()));
                    t.addMetrics(defs);
                }
            }
            EventRowWriter w = new EventRowWriter();
            SplittableRandom random = new SplittableRandom(5);
            long ts = 1_700_000_000_000L;
            for (int i = 0; i < 30_000; i++) {
                ts += random.nextInt(40);
                long t = random.nextInt(10) == 0 ? ts - random.nextInt(3_000) : ts; // some late, some beyond lateness
                long id = random.nextInt(50) == 0 && i > 0 ? i - 1 - random.nextInt(Math.min(i, 100)) : i;
                w.begin(SCHEMA).setLong(0, id).setLong(1, t).setString(2, "c" + random.nextInt(20))
                        .setDouble(3, random.nextInt(10_000) / 100.0);
                w.finish();
                List<Object> a = values(onDisk.process(w.row()));
                List<Object> b = values(inMemory.process(w.row()));
                assertThat(a).as("event %d", i).isEqualTo(b);
            }
            disk.flush(); // every closed chunk written: the file count no longer depends on the writer's pace
            ReservoirStats stats = disk.stats();
            assertThat(stats.chunkEntries()).isGreaterThan(100);
            assertThat(stats.segments()).isGreaterThan(1);
            assertThat(onDisk.stats().cursorCount()).isGreaterThan(options.cacheMaxChunks());
        }
    }

    private static List<Object> values(Reply r) {
        List<Object> v = new ArrayList<>();
        v.add(r.status());
        v.add(r.timestamp());
        for (int i = 0; i < r.size(); i++) {
            v.add(r.value(i));
        }
        return v;
    }
}
