package io.railgun.engine.local;

import io.railgun.engine.reply.StreamReply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.query.QueryException;
import io.railgun.engine.reservoir.ReservoirFactory;
import io.railgun.engine.reservoir.disk.DiskReservoir;
import io.railgun.engine.reservoir.disk.DiskReservoirOptions;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.task.TaskOptions;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A stream gains a nullable field while events of the old schema are still in its windows (in the
 * reservoir, in memory or in chunks on disk): old events keep expiring correctly, new metrics may
 * use the new field, and old rows read it as null.
 */
class SchemaEvolutionTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aFieldAddedWhileOldEventsAreInTheWindows(boolean onDisk) throws QueryException {
        Map<String, FieldType> f = new LinkedHashMap<>();
        f.put("id", FieldType.LONG);
        f.put("ts", FieldType.TIMESTAMP);
        f.put("card", FieldType.STRING);
        f.put("amount", FieldType.DOUBLE);
        Schema v1 = Schema.of(f);
        StreamDefinition def = new StreamDefinition("payments", v1, "id", "ts", List.of("card"), 1, 0, LateEventPolicy.DROP);
        ReservoirFactory reservoirs = onDisk
                ? (s, p, i) -> DiskReservoir.open(dir.resolve(p + "-" + i),
                        DiskReservoirOptions.defaults().withChunkTargetBytes(256).withCache(1, 1 << 20))
                : ReservoirFactory.IN_MEMORY;
        try (LocalStream stream = new LocalStream(def, TaskOptions.defaults(), reservoirs)) {
            stream.addStatement("SELECT SUM(amount) AS s, COUNT(*) AS n FROM payments GROUP BY card [RANGE 10 SECONDS]");
            EventRowWriter w = new EventRowWriter();
            for (int i = 0; i < 50; i++) { // 50 old events, one per 100 ms
                w.begin(v1).setLong(0, i).setLong(1, i * 100L).setString(2, "x").setDouble(3, 1.0);
                w.finish();
                stream.process(w.row());
            }
            Schema v2 = v1.withField("country", FieldType.STRING);
            stream.evolve(v2);
            stream.addStatement("SELECT COUNT(country) AS nc, COUNT(DISTINCT country) AS dc, LAST(country) AS lc "
                    + "FROM payments GROUP BY card [RANGE 10 SECONDS]");
            StreamReply r = null;
            for (int i = 50; i < 200; i++) { // new events, with a country
                w.begin(v2).setLong(0, i).setLong(1, i * 100L).setString(2, "x").setDouble(3, 2.0)
                        .setString(4, i % 2 == 0 ? "PT" : "ES");
                w.finish();
                r = stream.process(w.row());
                long oldInWindow = Math.max(0, 50 - Math.max(0, i - 99)); // old j in window iff 100 j > 100 i - 10 s
                long newInWindow = Math.min(i - 49, 100);
                assertThat(r.metrics().get("n")).as("event %d", i).isEqualTo(oldInWindow + newInWindow);
                assertThat((double) r.metrics().get("s")).isEqualTo(oldInWindow + 2.0 * newInWindow);
                assertThat(r.metrics().get("nc")).isEqualTo(Math.min(i - 49, 100L));
            }
            assertThat(r.metrics().get("dc")).isEqualTo(2L);
            assertThat(r.metrics().get("lc")).isEqualTo("ES");
            assertThatThrownBy(() -> stream.evolve(v1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("incompatible");
        }
    }
}
