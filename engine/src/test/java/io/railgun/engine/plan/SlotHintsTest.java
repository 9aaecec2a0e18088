package io.railgun.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link SlotHints} against a model that remembers every hint: a hint given is always the slot
 * put for that seq, and only while the slot keeps the epoch it had; the ring grows to cover tails
 * it is too short for, up to its limit.
 */
class SlotHintsTest {
    private static final int EPOCH = 1;

    @Test
    void neverGivesAWrongSlotOnRandomHistories() {
        SplittableRandom random = new SplittableRandom(20261125L);
        for (int history = 0; history < 200; history++) {
            int tableSlots = 1 << random.nextInt(4, 16);
            KeyRecords records = new KeyRecords(2);
            records.ensure(tableSlots - 1);
            long[] epochOf = new long[tableSlots]; // the model of the records' epochs
            long lastEpoch = 0;
            SlotHints hints = new SlotHints();
            List<long[]> put = new ArrayList<>(); // per seq: slot, epoch when put
            int events = random.nextInt(1_000, 60_000);
            int tail = random.nextInt(1, 70_000); // how far behind the newest event the tail reads
            int asked = 0; // of hints still valid
            int given = 0;
            for (long seq = 0; seq < events; seq++) {
                int slot = random.nextInt(tableSlots);
                if (epochOf[slot] == 0 || random.nextInt(50) == 0) { // a key placed in the slot
                    epochOf[slot] = ++lastEpoch;
                    records.page(slot)[records.base(slot) + EPOCH] = epochOf[slot];
                }
                hints.put(seq, slot, epochOf[slot]);
                put.add(new long[] {slot, epochOf[slot]});
                long old = seq - tail;
                if (old >= 0) {
                    int hint = hints.getForTail(old, records, EPOCH, tableSlots);
                    long[] expected = put.get((int) old);
                    boolean valid = epochOf[(int) expected[0]] == expected[1];
                    asked += valid ? 1 : 0;
                    if (hint >= 0) {
                        given++;
                        assertThat(valid).as("a hint for a slot whose key changed (seq %d)", old).isTrue();
                        assertThat(hint).as("seq %d", old).isEqualTo((int) expected[0]);
                    }
                }
                if (random.nextInt(10) == 0) { // a delayed window asks for a recent or a future seq
                    long any = Math.max(0, seq - random.nextInt(100)) + random.nextInt(3);
                    int hint = hints.get(any, records, EPOCH);
                    if (hint >= 0) {
                        assertThat(any).isLessThanOrEqualTo(seq);
                        long[] expected = put.get((int) any);
                        assertThat(epochOf[(int) expected[0]]).isEqualTo(expected[1]);
                        assertThat(hint).isEqualTo((int) expected[0]);
                    }
                }
            }
            assertThat(hints.size()).isLessThanOrEqualTo(SlotHints.limit(tableSlots));
            if (tail < SlotHints.limit(tableSlots) / 2 && events > 8 * tail && asked > 1_000) {
                assertThat(given).as("a tail the ring can cover is mostly served (tail %d, %d slots, %d asks)", tail, tableSlots, asked)
                        .isGreaterThan(asked / 2);
            }
        }
    }

    @Test
    void growsToHoldALongTailOnlyForTailsAndWithinFourTimesTheSlots() {
        KeyRecords records = oneKeyAtSlotZero();
        int tail = 300_000;
        SlotHints covered = new SlotHints();
        SlotHints capped = new SlotHints();
        SlotHints arrivals = new SlotHints(); // asked only as a delayed head or a backfill asks: never grows
        int hitsAtEnd = 0;
        for (long seq = 0; seq < 2 * tail; seq++) {
            covered.put(seq, 0, 7);
            capped.put(seq, 0, 7);
            arrivals.put(seq, 0, 7);
            if (seq >= tail) {
                int hit = covered.getForTail(seq - tail, records, EPOCH, 1 << 20);
                if (seq >= 2 * tail - 1_000 && hit == 0) {
                    hitsAtEnd++;
                }
                assertThat(capped.getForTail(seq - tail, records, EPOCH, 1 << 16)).isEqualTo(-1);
                assertThat(arrivals.get(seq - tail, records, EPOCH)).isEqualTo(-1);
            }
        }
        assertThat(covered.size()).isEqualTo(1 << 19); // the first power of two over the tail
        assertThat(hitsAtEnd).isEqualTo(1_000);
        assertThat(capped.size()).isEqualTo(SlotHints.INITIAL); // a tail past the limit is never served: no growth for it
        assertThat(arrivals.size()).isEqualTo(SlotHints.INITIAL);
        assertThat(covered.bytesPerSlot(1 << 20)).isEqualTo(8); // 2^19 entries of 16 bytes over 2^20 slots
        assertThat(SlotHints.limit(150_001)).as("a tail of four times the slots fits").isEqualTo(1 << 20);
        assertThat(SlotHints.limit(1 << 17)).isEqualTo(1 << 19);
        assertThat(SlotHints.limit(700_000)).as("FRAUD's 180-day tail of 2.7 M events over a table of 700,000 slots (1 M cards, some 780,000 hot)").isGreaterThan(2_730_000);
        assertThat(new SlotHints().bytesPerSlot(16)).isZero();
    }

    @Test
    void anArrivalKeepsTheHintsATailHasStillToExpireWithinTheLimit() {
        KeyRecords records = oneKeyAtSlotZero();
        int tail = 300_000;
        SlotHints ahead = new SlotHints(); // told the tail has expired nothing yet, then where it is
        SlotHints passed = new SlotHints(); // told the tail is past every seq overwritten: never grows
        SlotHints capped = new SlotHints(); // a tail past the limit: no growth for it
        int first = -1;
        int missed = 0;
        for (long seq = 0; seq < 2 * tail; seq++) {
            long tailAt = seq > tail ? seq - tail - 1 : -1;
            ahead.put(seq, 0, 7, tailAt, 1 << 20);
            passed.put(seq, 0, 7, seq, 1 << 20);
            capped.put(seq, 0, 7, tailAt, 1 << 16);
            if (seq >= tail) {
                int hit = ahead.getForTail(seq - tail, records, EPOCH, 1 << 20);
                missed += hit == 0 ? 0 : 1;
                first = first < 0 ? hit : first;
            }
        }
        assertThat(first).as("the tail's first expiry finds its hint").isZero();
        assertThat(missed).as("every expiry of the tail finds its hint").isZero();
        assertThat(ahead.size()).isEqualTo(1 << 19); // the first power of two over the tail, not more
        assertThat(passed.size()).isEqualTo(SlotHints.INITIAL);
        assertThat(capped.size()).isEqualTo(SlotHints.limit(1 << 16));
    }

    @Test
    void seqsAsHighAsTheEntriesKeepAreServedAndHigherOnesNever() {
        KeyRecords records = new KeyRecords(2);
        records.ensure(3);
        records.page(3)[records.base(3) + EPOCH] = 9;
        SlotHints hints = new SlotHints();
        long top = (1L << (32 + Integer.numberOfTrailingZeros(SlotHints.INITIAL))) - 1; // the highest seq kept
        hints.put(top, 3, 9);
        assertThat(hints.get(top, records, EPOCH)).isEqualTo(3);
        assertThat(hints.get(top - SlotHints.INITIAL, records, EPOCH)).as("same entry, another seq").isEqualTo(-1);
        hints.put(top + SlotHints.INITIAL, 3, 9); // its bits above the index pass 32: not kept
        assertThat(hints.get(top + SlotHints.INITIAL, records, EPOCH)).isEqualTo(-1);
        assertThat(hints.get(top, records, EPOCH)).isEqualTo(3);
        assertThat(hints.getForTail(top + 1, records, EPOCH, 1 << 20)).isEqualTo(-1);
        assertThat(hints.get(Long.MAX_VALUE, records, EPOCH)).isEqualTo(-1);
    }

    @Test
    void loadingTheNextRecordsReadsTheHintedSlotsOnlyAndChangesNothing() {
        KeyRecords records = new KeyRecords(3); // loads long 1 (the epoch), then longs [2, 3): 2 twice
        records.ensure(63);
        SlotHints hints = new SlotHints();
        for (long seq = 0; seq < 100; seq++) {
            int slot = (int) (seq % 50);
            records.page(slot)[records.base(slot) + EPOCH] = slot + 1;
            records.page(slot)[records.base(slot) + 2] = 1000;
            hints.put(seq, slot, slot + 1);
        }
        long expected = 0;
        for (long seq = 10; seq <= 25; seq++) {
            expected += seq % 50 + 1 + 2 * 1000;
        }
        assertThat(hints.loadRecords(9, 16, records, EPOCH, 2, 3)).isEqualTo(expected);
        assertThat(hints.loadRecords(95, 16, records, EPOCH, 2, 3)).as("seqs 96-99 hinted, 100-111 not")
                .isEqualTo(97 % 50 + 96 % 50 + 98 % 50 + 99 % 50 + 4 + 8 * 1000);
        hints.put(100, 1 << 20, 7); // a slot past the records allocated reads as 0
        assertThat(hints.loadRecords(99, 1, records, EPOCH, 2, 3)).isZero();
        assertThat(new SlotHints().loadRecords(0, 16, records, EPOCH, 2, 3)).isZero();
        for (long seq = 50; seq < 100; seq++) {
            assertThat(hints.get(seq, records, EPOCH)).isEqualTo((int) (seq % 50));
        }
    }

    /** Records with one key, at slot 0, of epoch 7. */
    private static KeyRecords oneKeyAtSlotZero() {
        KeyRecords records = new KeyRecords(2);
        records.ensure(0);
        records.page(0)[records.base(0) + EPOCH] = 7;
        return records;
    }
}
