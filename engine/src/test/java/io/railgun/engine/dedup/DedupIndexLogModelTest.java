package io.railgun.engine.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link DedupIndex} against an exact model of its log (held: entries {@code [head, tail)}; live: held
 * and counted at or after the boundary), on small tables that wrap, fill, are swept and rebuilt:
 * {@code contains}, {@code latest} and {@code held} after every step, with ids counted late and
 * boundaries that jump, and move back (a horizon lengthened: held ids live again, which a rebuild
 * that kept only the live entries lost).
 */
class DedupIndexLogModelTest {
    private record E(int id, long ts) {}

    private static byte[] bytes(int id) {
        return new byte[] {(byte) id, (byte) (id >>> 8), 7};
    }

    private static void run(boolean moveBack, boolean late, long seeds) {
        for (long seed = 0; seed < seeds; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            DedupIndex index = new DedupIndex(1 + r.nextInt(8));
            List<E> log = new ArrayList<>();
            int head = 0;
            long boundary = Long.MIN_VALUE;
            long now = 0;
            int pool = 4 + r.nextInt(200);
            int horizon = 1 + r.nextInt(60);
            for (int step = 0; step < 20_000; step++) {
                int id = r.nextInt(pool);
                byte[] b = bytes(id);
                long latest = Long.MIN_VALUE;
                for (int e = head; e < log.size(); e++) {
                    if (log.get(e).id == id && log.get(e).ts >= boundary) {
                        latest = Math.max(latest, log.get(e).ts);
                    }
                }
                assertThat(index.contains(b, 0, b.length)).as("seed %d step %d id %d", seed, step, id)
                        .isEqualTo(latest != Long.MIN_VALUE);
                assertThat(index.latest(b, 0, b.length)).as("seed %d step %d id %d latest", seed, step, id)
                        .isEqualTo(latest);
                if (latest == Long.MIN_VALUE) {
                    long ts = late && r.nextInt(3) == 0 ? Math.max(boundary, now - r.nextInt(horizon)) : now;
                    index.add(b, 0, b.length, ts);
                    log.add(new E(id, ts));
                }
                int u = r.nextInt(10);
                if (u < 4) {
                    now += r.nextInt(3);
                } else if (u == 4 && r.nextInt(20) == 0) {
                    now += r.nextInt(3 * horizon); // a jump
                }
                long nb = now - horizon;
                if (moveBack && r.nextInt(50) == 0) {
                    nb = boundary == Long.MIN_VALUE ? nb : boundary - r.nextInt(horizon); // horizon grew
                }
                if (nb != boundary) {
                    boundary = nb;
                    index.expireBefore(boundary);
                    while (head < log.size() && log.get(head).ts < boundary) {
                        head++;
                    }
                }
                assertThat(index.held()).isEqualTo(log.size() - head);
            }
        }
    }

    @Test
    void forwardOnlyNoLate() {
        run(false, false, 300);
    }

    @Test
    void forwardOnlyWithLate() {
        run(false, true, 300);
    }

    @Test
    void boundaryMovesBackWithLate() {
        run(true, true, 300);
    }
}
