package io.railgun.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
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

    /**
     * A key index names the slots of the keys noted before its last issue: each present key's own
     * slot (short and long keys; nearly all: a key far along its probe run is not looked for), -1
     * for absent ones; at most {@link Prefetches#CAPACITY}, once.
     */
    @Test
    void aKeyIndexNamesTheSlotsOfTheKeysItPrefetched() {
        ByteKeyIndex index = new ByteKeyIndex(16);
        for (int i = 0; i < 5_000; i++) {
            index.findOrInsert(key(i), 0, key(i).length);
        }
        for (int i = 0; i < 5_000; i += 3) {
            index.removeSlot(index.find(key(i), 0, key(i).length));
        }
        int[] slots = new int[Prefetches.CAPACITY];
        int present = 0;
        int unnamed = 0;
        for (int round = 0; round < 50; round++) {
            int first = round * 97;
            for (int k = 0; k < Prefetches.CAPACITY + 5; k++) {
                byte[] key = key(first + k);
                index.prefetch(key, 0, key.length);
            }
            index.issuePrefetches();
            assertThat(index.prefetchedSlots(slots)).isEqualTo(Prefetches.CAPACITY);
            for (int k = 0; k < Prefetches.CAPACITY; k++) {
                byte[] key = key(first + k);
                int found = index.find(key, 0, key.length);
                if (found >= 0 && slots[k] == -1) {
                    unnamed++; // further along its run than the buckets looked at
                } else {
                    assertThat(slots[k]).as("key %d", first + k).isEqualTo(found);
                }
                present += found >= 0 ? 1 : 0;
            }
            assertThat(index.prefetchedSlots(slots)).as("once").isZero();
        }
        assertThat(present).isGreaterThan(500);
        assertThat(unnamed).as("present keys not named, of %d", present).isLessThan(present / 20);
    }

    /** Keys 0.. of 4 to 30 bytes (short ones inline in the buckets, long ones in the arena); from 5,000 on, absent. */
    private static byte[] key(int i) {
        String s = i % 2 == 0 ? "k" + i : "a-longer-key-of-card-" + i;
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
