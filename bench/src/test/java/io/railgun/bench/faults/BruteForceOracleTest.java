package io.railgun.bench.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BruteForceOracleTest {
    private static final long W = 10_000;
    private final BruteForceOracle oracle = new BruteForceOracle(W, 5_000, 3_600_000, "s", "all");

    @Test
    void slidingWindowDuplicatesAndLateEventsFollowTheSemantics() {
        List<InputRecord> p = new ArrayList<>();
        p.add(InputRecord.statement(0, 0, List.of("s", "n")));
        p.add(InputRecord.statement(0, 1, List.of("all")));
        p.add(InputRecord.event(0, 2, "a", "c1", 1_000, 4));     // counted: T = 1000
        p.add(InputRecord.event(0, 3, "b", "c1", 8_000, 8));     // counted: T = 8000
        p.add(InputRecord.event(0, 4, "a", "c1", 1_000, 4));     // duplicate of a
        p.add(InputRecord.event(0, 5, "c", "c2", 11_500, 1));    // other card: T = 11500, a leaves c1's window
        p.add(InputRecord.event(0, 6, "d", "c1", 6_000, 2));     // 5500 behind T: late, dropped
        p.add(InputRecord.event(0, 7, "e", "c1", 7_000, 2));     // 4500 behind: counted at its own time
        List<Expected> x = oracle.recompute(p);

        assertThat(x).hasSize(6);
        assertThat(x.get(0)).extracting(Expected::sumQuarters, Expected::count, Expected::countAll).containsExactly(4L, 1L, 1L);
        assertThat(x.get(1)).extracting(Expected::sumQuarters, Expected::count, Expected::countAll).containsExactly(12L, 2L, 2L);
        assertThat(x.get(2).duplicate()).isTrue();
        assertThat(x.get(2)).extracting(Expected::sumQuarters, Expected::count, Expected::countAll).containsExactly(12L, 2L, 2L);
        assertThat(x.get(3)).extracting(Expected::sumQuarters, Expected::count, Expected::countAll).containsExactly(1L, 1L, 1L);
        assertThat(x.get(4).late()).isTrue();
        // c1 at T = 11500: a (1000) has left the 10 s window, b (8000) is in it
        assertThat(x.get(4)).extracting(Expected::sumQuarters, Expected::count, Expected::countAll).containsExactly(8L, 1L, 2L);
        assertThat(x.get(5)).extracting(Expected::sumQuarters, Expected::count, Expected::countAll).containsExactly(10L, 2L, 3L);
    }

    @Test
    void anEmptyWindowHasANullSumAndMetricsStartAtTheirMarker() {
        List<InputRecord> p = new ArrayList<>();
        p.add(InputRecord.event(0, 0, "a", "c1", 1_000, 4));     // before any metric
        p.add(InputRecord.statement(0, 1, List.of("s", "n")));
        p.add(InputRecord.event(0, 2, "b", "c1", 30_000, 4));    // T jumps: a is out of the window
        p.add(InputRecord.event(0, 3, "c", "c2", 30_000, 4));
        p.add(InputRecord.event(0, 4, "a", "c1", 1_000, 4));     // duplicate of a, which was counted before "s"
        List<Expected> x = oracle.recompute(p);

        assertThat(x.get(0).windowAbsent()).isTrue();
        assertThat(x.get(0).allAbsent()).isTrue();
        assertThat(x.get(1)).extracting(Expected::sumQuarters, Expected::count, Expected::windowAbsent).containsExactly(4L, 1L, false);
        assertThat(x.get(1).allAbsent()).isTrue();
        assertThat(x.get(3).duplicate()).isTrue();
        assertThat(x.get(3)).extracting(Expected::sumQuarters, Expected::count).containsExactly(4L, 1L);

        List<InputRecord> empty = List.of(InputRecord.statement(0, 0, List.of("s")),
                InputRecord.event(0, 1, "a", "c1", 50_000, 4), InputRecord.event(0, 2, "b", "c2", 1_000, 4));
        Expected late = oracle.recompute(empty).get(1);
        assertThat(late.late()).isTrue();
        assertThat(late.sumQuarters()).isNull();
        assertThat(late.count()).isZero();
    }

    @Test
    void anIdIsForgottenOnceItIsOlderThanTheHorizon() {
        BruteForceOracle shortMemory = new BruteForceOracle(W, 1_000_000, 20_000, "s", "all");
        List<InputRecord> p = List.of(InputRecord.statement(0, 0, List.of("s", "all")),
                InputRecord.event(0, 1, "a", "c1", 1_000, 4), InputRecord.event(0, 2, "b", "c1", 30_000, 4),
                InputRecord.event(0, 3, "a", "c1", 1_000, 4));
        Expected again = shortMemory.recompute(p).get(2);
        assertThat(again.duplicate()).isFalse();
        assertThat(again.countAll()).isEqualTo(3);
    }
}
