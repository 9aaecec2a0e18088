package io.railgun.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link SlotQueue} against a deque: order kept across growth and wrap-around, the limit respected. */
class SlotQueueTest {
    @Test
    void keepsOrderAcrossGrowthUpToItsLimit() {
        SplittableRandom r = new SplittableRandom(7);
        SlotQueue queue = new SlotQueue();
        ArrayDeque<Integer> model = new ArrayDeque<>();
        int limit = 1 << 15;
        int leftOut = 0;
        for (int step = 0; step < 400_000; step++) {
            if (r.nextInt(100) < 60) { // more adds than polls: the ring wraps, grows, then fills
                int slot = r.nextInt(1 << 20);
                if (queue.add(slot, limit)) {
                    model.add(slot);
                } else {
                    leftOut++;
                    assertThat(model).as("left out only when full at the limit").hasSize(limit - 1);
                }
            } else {
                Integer expected = model.poll();
                assertThat(queue.poll()).isEqualTo(expected == null ? -1 : expected);
            }
        }
        assertThat(leftOut).as("the limit was reached").isPositive();
        while (!model.isEmpty()) {
            assertThat(queue.poll()).isEqualTo(model.poll());
        }
        assertThat(queue.poll()).isEqualTo(-1);
    }
}
