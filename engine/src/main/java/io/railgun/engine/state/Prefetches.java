package io.railgun.engine.state;

/**
 * Loads of a hash table's slots noted ahead of the lookups that will need them, then issued in one
 * tight loop: on tables far larger than the CPU caches each lookup's first load misses, and a
 * core overlaps misses only when their loads are close together in the instruction stream (within
 * its reorder window, a few hundred instructions). Hashing a group of events' keys first and then
 * loading their slots back to back lets their misses overlap; the lookups that follow hit the cache.
 * E1: 20–24% more events per second (see {@code docs/benchmarks.md}).
 *
 * <p>A hint only: a noted index is loaded if it is still within the table (which may have been
 * replaced meanwhile); the values are summed so that the loads are not optimised away. At most
 * {@value #CAPACITY} are kept until issued; later ones are dropped. Owned by the table's thread.
 */
public final class Prefetches {
    /** Noted loads kept until issued. */
    public static final int CAPACITY = 32;

    private final int[] noted = new int[CAPACITY];
    private int count;

    /** Notes a load of {@code table[index]}, for the next {@link #issue}. */
    public void note(int index) {
        if (count < CAPACITY) {
            noted[count++] = index;
        }
    }

    /** Loads the noted slots of {@code table} (those within it) and forgets them; returns their sum. */
    public long issue(long[] table) {
        long sum = 0;
        for (int k = 0; k < count; k++) {
            int i = noted[k];
            if (i < table.length) {
                sum += table[i];
            }
        }
        count = 0;
        return sum;
    }
}
