package io.railgun.engine.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link DedupIndex} against an exact model of its log (held: entries {@code [head, tail)}; live:
 * held and counted at or after the boundary), {@code contains}, {@code latest} and {@code held}
 * after every step, on small tables that wrap, fill, are swept, grow and are rebuilt, with ids
 * looked up while their entries move to a grown table: expiry, ids counted late, boundaries that
 * jump and move back (a horizon lengthened: held ids live again, which a rebuild that kept only the
 * live entries lost), ids added again with a later timestamp, {@code clear()}, ids of 3 to 62
 * bytes (written by review).
 */
class DedupIndexLogModelTest {
    private record E(int id, long ts) {}

    private static byte[] bytes(int id, int len) {
        byte[] b = new byte[len];
        for (int i = 0; i < len; i++) {
            b[i] = (byte) (id >>> (8 * (i % 4)) ^ (i > 3 ? 0x5A : 0));
        }
        return b;
    }

    @Test
    void idsAreFoundExactlyWhileTheTableGrows() {
        long migratingSteps = 0;
        long growths = 0;
        long clears = 0;
        for (long seed = 0; seed < 300; seed++) {
            SplittableRandom r = new SplittableRandom(seed * 7919 + 1);
            DedupIndex index = new DedupIndex(1 + r.nextInt(20));
            int[] lens = new int[1 << 16];
            int pool = 50 + r.nextInt(r.nextBoolean() ? 500 : 4000);
            for (int i = 0; i < pool; i++) {
                lens[i] = 3 + r.nextInt(r.nextInt(3) == 0 ? 60 : 6);
            }
            List<E> log = new ArrayList<>();
            int head = 0;
            long boundary = Long.MIN_VALUE;
            long now = 0;
            int horizon = 1 + r.nextInt(r.nextBoolean() ? 50 : 3000);
            boolean late = r.nextBoolean();
            boolean moveBack = r.nextBoolean();
            boolean readd = r.nextBoolean();
            for (int step = 0; step < 15_000; step++) {
                int id = r.nextInt(pool);
                byte[] b = bytes(id, lens[id]);
                long latest = latest(log, head, boundary, id);
                check(index, b, latest, seed, step, id);
                if (latest == Long.MIN_VALUE || (readd && r.nextInt(4) == 0 && now > latest)) {
                    long ts = latest == Long.MIN_VALUE && late && r.nextInt(3) == 0
                            ? Math.max(boundary, now - r.nextInt(horizon)) : now; // an id added again: later
                    index.add(b, 0, b.length, ts);
                    log.add(new E(id, ts));
                }
                if (index.migrating()) {
                    migratingSteps++;
                }
                // extra checks while migrating
                if (index.migrating() || r.nextInt(50) == 0) {
                    for (int k = 0; k < 4; k++) {
                        int q = r.nextInt(pool);
                        byte[] qb = bytes(q, lens[q]);
                        check(index, qb, latest(log, head, boundary, q), seed, step, q);
                            }
                    if (head < log.size()) { // a held entry's id
                        int q = log.get(head + r.nextInt(log.size() - head)).id;
                        byte[] qb = bytes(q, lens[q]);
                        check(index, qb, latest(log, head, boundary, q), seed, step, q);
                            }
                }
                int u = r.nextInt(10);
                if (u < 4) {
                    now += r.nextInt(3);
                } else if (u == 4 && r.nextInt(40) == 0) {
                    now += r.nextInt(3 * horizon);
                }
                long nb = now - horizon;
                if (moveBack && r.nextInt(60) == 0 && boundary != Long.MIN_VALUE) {
                    nb = boundary - r.nextInt(horizon); // the horizon grew
                }
                if (r.nextInt(3000) == 0) {
                    index.clear();
                    head = log.size();
                    clears++;
                }
                if (nb != boundary && r.nextInt(3) != 0) {
                    boundary = nb;
                    index.expireBefore(boundary);
                    while (head < log.size() && log.get(head).ts < boundary) {
                        head++;
                    }
                }
                assertThat(index.held()).isEqualTo(log.size() - head);
            }
            growths += index.growths();
        }
        assertThat(growths).as("growths").isGreaterThan(100);
        assertThat(migratingSteps).as("steps taken while entries moved").isGreaterThan(1_000);
        assertThat(clears).as("clears").isPositive();
    }

    private static long latest(List<E> log, int head, long boundary, int id) {
        long latest = Long.MIN_VALUE;
        for (int e = head; e < log.size(); e++) {
            E x = log.get(e);
            if (x.id == id && x.ts >= boundary) {
                latest = Math.max(latest, x.ts);
            }
        }
        return latest;
    }

    private static void check(DedupIndex index, byte[] b, long latest, long seed, int step, int id) {
        assertThat(index.contains(b, 0, b.length)).as("seed %d step %d id %d migrating %s", seed, step, id, index.migrating())
                .isEqualTo(latest != Long.MIN_VALUE);
        assertThat(index.latest(b, 0, b.length)).as("seed %d step %d id %d latest migrating %s", seed, step, id, index.migrating())
                .isEqualTo(latest);
    }
}
