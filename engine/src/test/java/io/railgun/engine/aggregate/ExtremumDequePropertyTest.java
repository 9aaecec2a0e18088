package io.railgun.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The monotonic deque gives the brute-force MIN/MAX of the events still in the window when events
 * arrive out of order (within a lateness) and expire in (timestamp, seq) order.
 */
class ExtremumDequePropertyTest {
    record Ev(long ts, long seq, long value) {}

    @Property(tries = 500)
    void matchesBruteForce(
            @ForAll @Size(min = 1, max = 300) List<@IntRange(min = -5, max = 5) Integer> values,
            @ForAll @Size(min = 300, max = 300) List<@IntRange(min = 0, max = 4) Integer> gaps,
            @ForAll @Size(min = 300, max = 300) List<@IntRange(min = 0, max = 6) Integer> lateness,
            @ForAll @IntRange(min = 1, max = 20) int window,
            @ForAll boolean max) {
        int sign = max ? 1 : -1;
        long[] deque = ExtremumDeque.create();
        TreeMap<Ev, Boolean> inWindow = new TreeMap<>(Comparator.comparingLong(Ev::ts).thenComparingLong(Ev::seq));
        List<Ev> all = new ArrayList<>();
        long clock = 0;
        long streamTime = Long.MIN_VALUE;
        for (int i = 0; i < values.size(); i++) {
            clock += gaps.get(i);
            long ts = Math.max(0, clock - lateness.get(i));
            Ev e = new Ev(ts, i, values.get(i));
            long newT = Math.max(streamTime, ts);
            // an event already behind the tail never enters
            if (ts > newT - window) {
                deque = ExtremumDeque.arrive(deque, e.ts(), e.seq(), e.value(), sign);
                inWindow.put(e, true);
            }
            all.add(e);
            streamTime = newT;
            while (!inWindow.isEmpty() && inWindow.firstKey().ts() <= streamTime - window) {
                Ev gone = inWindow.pollFirstEntry().getKey();
                ExtremumDeque.expire(deque, gone.ts(), gone.seq());
            }
            if (inWindow.isEmpty()) {
                assertThat(ExtremumDeque.isEmpty(deque)).isTrue();
            } else {
                long expected = inWindow.keySet().stream().mapToLong(Ev::value).reduce(max ? Long.MIN_VALUE : Long.MAX_VALUE,
                        (a, b) -> max ? Math.max(a, b) : Math.min(a, b));
                assertThat(ExtremumDeque.front(deque)).as("after event %d", i).isEqualTo(expected);
            }
        }
    }
}
