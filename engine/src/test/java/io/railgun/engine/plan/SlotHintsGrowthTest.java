package io.railgun.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.state.InMemoryStateStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A key table's slot hints grow ahead of its window tails, as far as the slowest tail needs: a
 * node whose filter keeps every event from it learns where its tail is from the events it passed,
 * so it does not hold the ring's growth back at its first expiry (none).
 */
class SlotHintsGrowthTest {
    private static final int SPAN = 100_000; // the tail's lag behind the arrivals, in events
    private static final int KEYS = 1 << 17; // so the ring's limit is well over the span
    private static final Schema SCHEMA = Schema.of(Map.of("card", FieldType.LONG));
    private final EventRowWriter writer = new EventRowWriter();

    @Test
    void theRingGrowsToTheTailsSpanNotToItsLimitWhenAFilteredNodeReportsWhereItsTailIs() {
        assertThat(ringEntries(true)).isEqualTo(1 << 17); // the first power of two over the span
    }

    @Test
    void aTailThatNeverReportsHoldsTheGrowthBackToTheLimit() {
        // what the report prevents: a node whose tail never expired counts as still needing every
        // seq, so the ring grows past the span, to its limit
        assertThat(ringEntries(false)).isGreaterThan(1 << 17);
    }

    /** Entries of the hint ring after 6 spans of events over {@value #KEYS} keys, two nodes with tails. */
    private int ringEntries(boolean filteredTailReports) {
        KeyTable table = new KeyTable("by", new KeyEncoder(List.of(SCHEMA.field("card"))),
                new InMemoryStateStore().keyedState("by"));
        GroupByNode all = new GroupByNode("w|true|by", table, true);
        GroupByNode filtered = new GroupByNode("w|x|by", table, true);
        FilterNode filter = new FilterNode(new Evaluator(ValueType.BOOLEAN) { // passes nothing
            @Override
            public boolean eval(EventRow row) {
                return false;
            }
        });
        filter.add(filtered);
        table.attach(all);
        table.attach(filtered);
        for (long seq = 0; seq < 6L * SPAN; seq++) {
            all.arrive(seq, seq, row(seq));
            if (seq >= SPAN) {
                all.expire(seq - SPAN, seq - SPAN, row(seq - SPAN));
                if (filteredTailReports) {
                    filter.expire(seq - SPAN, seq - SPAN, row(seq - SPAN)); // the window's tail passes it
                }
            }
        }
        return table.hintEntries();
    }

    private EventRow row(long seq) {
        writer.begin(SCHEMA).setLong(0, seq % KEYS);
        writer.finish();
        return writer.row();
    }
}
