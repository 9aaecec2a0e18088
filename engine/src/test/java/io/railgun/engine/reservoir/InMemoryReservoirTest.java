package io.railgun.engine.reservoir;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.Schema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class InMemoryReservoirTest {
    private final Schema schema;

    InMemoryReservoirTest() {
        Map<String, FieldType> f = new LinkedHashMap<>();
        f.put("n", FieldType.LONG);
        schema = Schema.of(f);
    }

    private final EventRowWriter writer = new EventRowWriter();

    private void insert(EventReservoir r, long ts, long seq) {
        writer.begin(schema).setLong(0, seq);
        writer.finish();
        r.insert(ts, seq, writer.row());
    }

    @Test
    void cursorsPassEventsInTimestampOrderAndCountLateInsertsBehindThemAsPassed() {
        InMemoryReservoir r = new InMemoryReservoir();
        ReservoirCursor head = r.openCursor(Long.MIN_VALUE);
        List<Long> seen = new ArrayList<>();
        EventSink sink = (ts, seq, row) -> {
            assertThat(row.getLong(0)).isEqualTo(seq);
            seen.add(ts);
        };
        insert(r, 10, 0);
        insert(r, 20, 1);
        head.advanceTo(15, sink);
        assertThat(seen).containsExactly(10L);
        insert(r, 12, 2); // behind the cursor: counted as passed, never delivered by advanceTo
        insert(r, 17, 3); // ahead of it
        head.advanceTo(100, sink);
        assertThat(seen).containsExactly(10L, 17L, 20L);
    }

    @Test
    void trimKeepsWhatTheSlowestCursorNeedsAndSurvivesCompaction() {
        InMemoryReservoir r = new InMemoryReservoir();
        ReservoirCursor head = r.openCursor(Long.MIN_VALUE);
        ReservoirCursor tail = r.openCursor(Long.MIN_VALUE);
        SplittableRandom random = new SplittableRandom(7);
        long[] expired = {0};
        long[] lastExpiredTs = {Long.MIN_VALUE};
        long ts = 0;
        for (int i = 0; i < 200_000; i++) {
            ts += random.nextInt(3);
            insert(r, ts, i);
            head.advanceTo(ts, (t, s, row) -> {});
            tail.advanceTo(ts - 1000, (t, s, row) -> {
                assertThat(t).isGreaterThanOrEqualTo(lastExpiredTs[0]);
                lastExpiredTs[0] = t;
                expired[0]++;
            });
            r.trim();
        }
        assertThat(r.size()).isLessThan(2_000); // only about 1000 ms of events (at most ~1000 events) remain
        assertThat(expired[0] + r.size()).isEqualTo(200_000);
    }
}
