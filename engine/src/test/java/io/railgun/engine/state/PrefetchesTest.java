package io.railgun.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PrefetchesTest {
    @Test
    void issuesTheNotedLoadsOnceAndKeepsAtMostItsCapacity() {
        long[] table = new long[100];
        Arrays.setAll(table, i -> 1L << (i % 60));
        Prefetches p = new Prefetches();
        for (int i = 0; i < Prefetches.CAPACITY + 10; i++) {
            p.note(i);
        }
        long expected = 0;
        for (int i = 0; i < Prefetches.CAPACITY; i++) {
            expected += table[i];
        }
        assertThat(p.issue(table)).as("the first %d noted", Prefetches.CAPACITY).isEqualTo(expected);
        assertThat(p.issue(table)).as("forgotten once issued").isZero();
    }

    @Test
    void skipsIndexesPastATableReplacedMeanwhile() {
        Prefetches p = new Prefetches();
        p.note(5);
        p.note(500); // noted against a larger table
        long[] smaller = new long[10];
        smaller[5] = 7;
        assertThat(p.issue(smaller)).isEqualTo(7);
    }
}
