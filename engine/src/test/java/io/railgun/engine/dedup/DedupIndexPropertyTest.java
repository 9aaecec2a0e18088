package io.railgun.engine.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * {@link DedupIndex} against a brute-force model (a map from id to the timestamp it was last
 * counted at): after every step, an id is live exactly when the model counted it at or after the
 * boundary. Random streams mix repeated and fresh ids of 0 to 40 bytes, late arrivals (older
 * timestamps than the ones around them), boundaries that stand still or jump, and enough ids to
 * make the log, the byte ring and the table grow, wrap and be rebuilt.
 */
class DedupIndexPropertyTest {
    private static final java.lang.invoke.VarHandle LONG =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    @Property(tries = 200)
    void liveIdsAreExactlyThoseCountedAtOrAfterTheBoundary(@ForAll("seeds") long seed) {
        Random r = new Random(seed);
        DedupIndex index = new DedupIndex(r.nextInt(64) + 1);
        Map<String, Long> counted = new HashMap<>();
        int pool = 1 + r.nextInt(r.nextBoolean() ? 50 : 5_000);
        long horizon = 1 + r.nextInt(r.nextBoolean() ? 100 : 10_000);
        long lateness = r.nextInt((int) horizon + 1); // the task keeps H >= lateness
        long streamTime = r.nextBoolean() ? r.nextLong(-1_000_000, 1_000_000) : 1_700_000_000_000L;
        long boundary = Long.MIN_VALUE;
        int steps = 200 + r.nextInt(r.nextBoolean() ? 2_000 : 20_000);
        for (int step = 0; step < steps; step++) {
            String id = id(r, pool);
            byte[] b = id.getBytes(StandardCharsets.UTF_8);
            int pad = r.nextInt(3);
            byte[] padded = new byte[b.length + 2 * pad];
            System.arraycopy(b, 0, padded, pad, b.length);
            Long last = counted.get(id);
            boolean expected = last != null && last >= boundary;
            assertThat(index.contains(padded, pad, b.length)).as("step %d id %s", step, id).isEqualTo(expected);
            if (expected) {
                continue; // a duplicate: not counted again
            }
            long ts = r.nextInt(5) == 0 ? streamTime - r.nextLong(lateness + 1) : streamTime + r.nextInt(r.nextBoolean() ? 3 : 50);
            index.add(padded, pad, b.length, ts);
            counted.put(id, ts);
            if (ts > streamTime) {
                streamTime = ts;
                boundary = streamTime - horizon;
                index.expireBefore(boundary);
            }
            if (r.nextInt(500) == 0) { // now and then check every id of the pool
                for (int i = 0; i < Math.min(pool, 300); i++) {
                    String p = "id-" + i;
                    Long t = counted.get(p);
                    assertThat(index.contains(p.getBytes(StandardCharsets.UTF_8), 0, p.length()))
                            .as("step %d sweep %s", step, p).isEqualTo(t != null && t >= boundary);
                }
            }
        }
        long live = counted.values().stream().filter(t -> t >= index.boundary()).count();
        assertThat(index.held()).isGreaterThanOrEqualTo(live);
    }

    /** Ids drawn from a pool (repeats), and now and then a fresh long one or the empty id. */
    private static String id(Random r, int pool) {
        int u = r.nextInt(100);
        if (u == 0) {
            return "";
        }
        if (u < 5) {
            return "fresh-" + r.nextLong() + "-" + "x".repeat(r.nextInt(20));
        }
        return "id-" + r.nextInt(pool);
    }

    @Test
    void aBoundaryMovedBackRevivesTheIdsStillHeld() {
        DedupIndex index = new DedupIndex(4);
        byte[] a = {1};
        byte[] b = {2};
        index.add(a, 0, 1, 10);
        index.add(b, 0, 1, 20);
        index.expireBefore(15); // a is dropped from the log (it is at the head)
        assertThat(index.contains(a, 0, 1)).isFalse();
        assertThat(index.contains(b, 0, 1)).isTrue();
        index.expireBefore(25);
        assertThat(index.contains(b, 0, 1)).isFalse();
        assertThat(index.held()).isZero();
        index.add(a, 0, 1, 30);
        index.add(b, 0, 1, 26); // late, but live
        index.expireBefore(27); // b is dead, behind the live a: held until the head reaches it
        assertThat(index.contains(b, 0, 1)).isFalse();
        assertThat(index.held()).isEqualTo(2);
        index.expireBefore(26); // the horizon grew: b is live again
        assertThat(index.contains(b, 0, 1)).isTrue();
        index.clear();
        assertThat(index.contains(a, 0, 1)).isFalse();
        assertThat(index.held()).isZero();
    }

    @Test
    void steadyStateAllocatesNothing() {
        DedupIndex index = new DedupIndex(1 << 16);
        byte[] id = new byte[12];
        com.sun.management.ThreadMXBean bean =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = 0;
        for (long i = 0; i < 3_000_000; i++) {
            if (i == 1_000_000) {
                before = bean.getCurrentThreadAllocatedBytes();
            }
            LONG.set(id, 0, i * 0x9E3779B97F4A7C15L);
            LONG.set(id, 4, i);
            if (!index.contains(id, 0, 12)) {
                index.add(id, 0, 12, i);
            }
            index.expireBefore(i - 50_000);
        }
        long allocated = bean.getCurrentThreadAllocatedBytes() - before;
        assertThat(allocated).as("bytes allocated over 2 M ids in steady state").isLessThan(10_000);
        assertThat(index.held()).isEqualTo(50_001);
    }

    @Test
    void steadyStateNeverRebuildsTheTable() {
        DedupIndex index = new DedupIndex(16);
        byte[] id = new byte[12];
        long rebuildsWhenFull = 0;
        for (long i = 0; i < 3_000_000; i++) {
            if (i == 200_000) {
                rebuildsWhenFull = index.rebuilds(); // the live ids grew to 50,001 by then
            }
            LONG.set(id, 0, i * 0x9E3779B97F4A7C15L);
            LONG.set(id, 4, i);
            assertThat(index.contains(id, 0, 12)).isFalse();
            index.add(id, 0, 12, i);
            index.expireBefore(i - 50_000);
            if (i % 100_003 == 0) { // the ids of the horizon are still found after the sweeps' moves
                for (long k = Math.max(0, i - 50_000); k <= i; k += 997) {
                    LONG.set(id, 0, k * 0x9E3779B97F4A7C15L);
                    LONG.set(id, 4, k);
                    assertThat(index.contains(id, 0, 12)).as("id %d at %d", k, i).isTrue();
                }
            }
        }
        // a stream of fresh ids over a fixed horizon: the sweep empties the slots of forgotten ids,
        // so the table never fills to half with them (it was rebuilt every ~100,000 ids here)
        assertThat(index.rebuilds()).isEqualTo(rebuildsWhenFull);
    }

    @Test
    void anIdCountedAtTheLeastTimestampIsLive() {
        DedupIndex index = new DedupIndex(16);
        byte[] id = {1, 2, 3};
        index.add(id, 0, 3, Long.MIN_VALUE);
        assertThat(index.contains(id, 0, 3)).isTrue();
    }

    @Test
    void growsByMovingEntriesOverLaterInsertsAndFindsThemMeanwhile() {
        DedupIndex index = new DedupIndex(16);
        byte[] id = new byte[12];
        java.util.SplittableRandom random = new java.util.SplittableRandom(11);
        int longestMove = 0;
        int move = 0;
        for (long i = 0; i < 600_000; i++) {
            LONG.set(id, 0, i * 0x9E3779B97F4A7C15L);
            LONG.set(id, 4, i);
            assertThat(index.contains(id, 0, 12)).isFalse();
            index.add(id, 0, 12, i); // no id is forgotten: the table must grow
            move = index.migrating() ? move + 1 : 0;
            longestMove = Math.max(longestMove, move);
            long earlier = random.nextLong(i + 1);
            LONG.set(id, 0, earlier * 0x9E3779B97F4A7C15L);
            LONG.set(id, 4, earlier);
            assertThat(index.contains(id, 0, 12)).as("id %d after %d ids (moving: %s)", earlier, i, index.migrating())
                    .isTrue();
            assertThat(index.latest(id, 0, 12)).isEqualTo(earlier);
        }
        assertThat(index.growths()).as("growths").isGreaterThanOrEqualTo(5);
        assertThat(index.rebuilds()).as("rebuilds in one go").isZero();
        assertThat(longestMove).as("inserts over which the last growth's entries moved").isGreaterThan(1_000);
    }

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.randomValue(Random::nextLong);
    }
}
