package io.railgun.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class KeyRecordsTest {

    @Test
    void pagedRecordsAgreeWithOneFlatArray() {
        int stride = 5;
        int maxSlot = 3 * KeyRecords.PAGE_SLOTS + 17;
        long[] model = new long[(maxSlot + 1) * stride];
        int modelSlots = 0; // slots ensured so far in the model
        KeyRecords records = new KeyRecords(stride);
        SplittableRandom random = new SplittableRandom(7);
        for (int step = 0; step < 200_000; step++) {
            // slots mostly grow slowly, as a key index hands them out
            int slot = random.nextInt(Math.min(maxSlot + 1, modelSlots + 64));
            records.ensure(slot);
            modelSlots = Math.max(modelSlots, slot + 1);
            assertThat(records.slots()).isGreaterThan(slot);
            int index = random.nextInt(stride);
            switch (random.nextInt(3)) {
                case 0 -> {
                    long v = random.nextLong();
                    records.page(slot)[records.base(slot) + index] = v;
                    model[slot * stride + index] = v;
                }
                case 1 -> {
                    records.clear(slot);
                    java.util.Arrays.fill(model, slot * stride, slot * stride + stride, 0L);
                }
                default -> assertThat(records.get(slot, index)).isEqualTo(model[slot * stride + index]);
            }
        }
        for (int s = 0; s < modelSlots; s++) {
            for (int i = 0; i < stride; i++) {
                assertThat(records.get(s, i)).isEqualTo(model[s * stride + i]);
            }
        }
        // past the slots allocated: zero, no page
        assertThat(records.get(records.slots() + 5, 0)).isZero();
    }

    @Test
    void aRecordNeverCrossesAPageAndPagesAreAllocatedOnce() {
        KeyRecords records = new KeyRecords(3);
        records.ensure(0);
        assertThat(records.slots()).isEqualTo(16);
        records.ensure(KeyRecords.PAGE_SLOTS - 1);
        assertThat(records.slots()).isEqualTo(KeyRecords.PAGE_SLOTS);
        long[] first = records.page(0);
        records.ensure(KeyRecords.PAGE_SLOTS);
        assertThat(records.slots()).isEqualTo(2 * KeyRecords.PAGE_SLOTS);
        assertThat(records.page(0)).isSameAs(first); // not copied
        int last = KeyRecords.PAGE_SLOTS - 1;
        assertThat(records.base(last) + 3).isLessThanOrEqualTo(records.page(last).length);
        assertThat(records.base(KeyRecords.PAGE_SLOTS)).isZero();
    }
}
