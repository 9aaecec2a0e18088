package io.railgun.engine.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link ArrivalLog} against a deque of the held entries, as the held span grows, shrinks and wraps pages. */
class ArrivalLogTest {

    @Test
    void heldEntriesReadBackAsWritten() {
        ArrivalLog log = new ArrivalLog();
        ArrayDeque<long[]> model = new ArrayDeque<>(); // {e, timestamp, offset, length}
        SplittableRandom random = new SplittableRandom(11);
        long head = 0;
        long tail = 0;
        for (int round = 0; round < 40; round++) {
            // phases that fill (the window filling) and drain (it expiring), around several pages
            int adds = random.nextInt(6 * ArrivalLog.PAGE_ENTRIES);
            for (int i = 0; i < adds; i++) {
                long ts = random.nextLong();
                long offset = random.nextLong(1L << 40);
                int length = random.nextInt(64);
                log.append(head, tail, ts, offset, length);
                model.addLast(new long[] {tail, ts, offset, length});
                tail++;
            }
            if (random.nextInt(10) == 0) { // cleared: the head jumps to the tail
                model.clear();
                head = tail;
            }
            int drops = random.nextInt((int) (tail - head) + 1);
            for (int i = 0; i < drops; i++) {
                model.removeFirst();
                head++;
            }
            for (long[] m : model) {
                assertThat(log.timestamp(m[0])).isEqualTo(m[1]);
                assertThat(log.offset(m[0])).isEqualTo(m[2]);
                assertThat(log.length(m[0])).isEqualTo((int) m[3]);
            }
        }
        // pages are reused: never more than the most entries held at once needed, plus one
        long maxHeldPages = 6L * 40 + 2; // a loose bound: adds per round are below 6 pages
        assertThat(log.memoryBytes()).isLessThan(maxHeldPages * ArrivalLog.PAGE_ENTRIES * ArrivalLog.ENTRY_BYTES + 24L * 1024);
    }

    @Test
    void aSteadyWindowAllocatesNoNewPages() {
        ArrivalLog log = new ArrivalLog();
        long head = 0;
        long tail = 0;
        int held = 5 * ArrivalLog.PAGE_ENTRIES + 123;
        for (; tail < held; tail++) {
            log.append(head, tail, tail, tail, 1);
        }
        long filled = log.memoryBytes();
        for (int i = 0; i < 50 * ArrivalLog.PAGE_ENTRIES; i++, tail++, head++) {
            log.append(head, tail, tail, tail, 1);
        }
        assertThat(log.memoryBytes()).isLessThanOrEqualTo(filled + ArrivalLog.PAGE_ENTRIES * ArrivalLog.ENTRY_BYTES);
        long steady = log.memoryBytes();
        for (int i = 0; i < 50 * ArrivalLog.PAGE_ENTRIES; i++, tail++, head++) {
            log.append(head, tail, tail, tail, 1);
        }
        assertThat(log.memoryBytes()).as("no page allocated in steady state").isEqualTo(steady);
        for (long e = head; e < tail; e++) {
            assertThat(log.timestamp(e)).isEqualTo(e);
        }
    }
}
