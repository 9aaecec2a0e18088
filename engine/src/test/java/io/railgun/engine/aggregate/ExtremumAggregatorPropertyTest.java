package io.railgun.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.state.StateReader;
import io.railgun.engine.state.StateWriter;
import io.railgun.engine.task.ReplyProbe;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * {@link ExtremumAggregator} answers the brute-force MIN/MAX of the events in the window, through
 * its two forms (a deque of at most one entry in the record, a longer one in the key's array, and
 * back), keys emptied and refilled, out-of-order arrivals, restores from saved
 * state mid-way, and restores from state saved in the former layout (the array alone, record
 * width 0: {@link Aggregator#restoredWithoutRecord}).
 */
class ExtremumAggregatorPropertyTest {
    record Ev(long ts, long seq, long value) {}

    /** Hands the aggregator a preset value. */
    private static final class Preset extends Evaluator {
        Preset() {
            super(ValueType.LONG);
        }

        @Override
        public boolean eval(EventRow row) {
            return true;
        }
    }

    @Property(tries = 400)
    void matchesBruteForce(
            @ForAll @Size(min = 1, max = 300) List<@IntRange(min = -4, max = 4) Integer> values,
            @ForAll @Size(min = 300, max = 300) List<@IntRange(min = 0, max = 4) Integer> gaps,
            @ForAll @Size(min = 300, max = 300) List<@IntRange(min = 0, max = 6) Integer> lateness,
            @ForAll @IntRange(min = 1, max = 20) int window,
            @ForAll @IntRange(min = 0, max = 299) int restoreAt,
            @ForAll boolean formerLayout,
            @ForAll boolean max) {
        int sign = max ? 1 : -1;
        Preset arg = new Preset();
        ExtremumAggregator agg = new ExtremumAggregator(max, arg);
        agg.offset(1); // after the node's population, as laid out in a record
        agg.ensureCapacity(4);
        int slot = 2;
        long[] record = new long[1 + agg.width()];
        long[] formerDeque = ExtremumDeque.create(); // what the former layout kept: the whole deque
        TreeMap<Ev, Boolean> inWindow = new TreeMap<>(Comparator.comparingLong(Ev::ts).thenComparingLong(Ev::seq));
        ReplyProbe reply = new ReplyProbe(ValueType.LONG);
        long clock = 0;
        long streamTime = Long.MIN_VALUE;
        for (int i = 0; i < values.size(); i++) {
            clock += gaps.get(i);
            long ts = Math.max(0, clock - lateness.get(i));
            Ev e = new Ev(ts, i, values.get(i));
            long newT = Math.max(streamTime, ts);
            if (ts > newT - window) { // an event already behind the tail never enters
                arg.longValue = e.value();
                agg.arrive(record, 0, slot, e.ts(), e.seq(), null);
                formerDeque = ExtremumDeque.arrive(formerDeque, e.ts(), e.seq(), e.value(), sign);
                inWindow.put(e, true);
                record[0]++;
            }
            streamTime = newT;
            while (!inWindow.isEmpty() && inWindow.firstKey().ts() <= streamTime - window) {
                Ev gone = inWindow.pollFirstEntry().getKey();
                arg.longValue = gone.value();
                agg.expire(record, 0, slot, gone.ts(), gone.seq(), null);
                ExtremumDeque.expire(formerDeque, gone.ts(), gone.seq());
                if (--record[0] == 0) { // the key left the window: as the node does, reset, then zero the segment
                    agg.resetKey(record, 0, slot);
                    java.util.Arrays.fill(record, 0);
                }
            }
            if (i == restoreAt) {
                // a new aggregator, whose slot held another key's deque, restored from the saved key
                ExtremumAggregator restored = new ExtremumAggregator(max, arg);
                restored.offset(1);
                restored.ensureCapacity(4);
                long[] fresh = new long[record.length];
                restored.loadExternal(fresh, 0, slot, reader(out -> ExtremumDeque.save(new long[] {0, 1, 9, 9, 99, 0, 0, 0, 0, 0, 0, 0, 0, 0}, out)));
                fresh[0] = record[0];
                if (formerLayout) {
                    long[] former = formerDeque.clone();
                    restored.loadExternal(fresh, 0, slot, reader(out -> ExtremumDeque.save(former, out)));
                    restored.restoredWithoutRecord(fresh, 1, slot);
                } else {
                    StateWriter saved = new StateWriter();
                    agg.saveExternal(slot, saved);
                    System.arraycopy(record, 1, fresh, 1, agg.width());
                    restored.loadExternal(fresh, 0, slot, new StateReader().reset(saved.buffer(), 0, saved.length()));
                }
                agg = restored;
                record = fresh;
            }
            Object value = reply.value(agg, record, 0, record[0] == 0 ? -1 : slot);
            if (inWindow.isEmpty()) {
                assertThat(value).as("after event %d", i).isNull();
            } else {
                long expected = inWindow.keySet().stream().mapToLong(Ev::value).reduce(max ? Long.MIN_VALUE : Long.MAX_VALUE,
                        (a, b) -> max ? Math.max(a, b) : Math.min(a, b));
                assertThat(value).as("after event %d", i).isEqualTo(expected);
            }
        }
    }

    private static StateReader reader(java.util.function.Consumer<StateWriter> save) {
        StateWriter out = new StateWriter();
        save.accept(out);
        return new StateReader().reset(out.buffer(), 0, out.length());
    }
}
