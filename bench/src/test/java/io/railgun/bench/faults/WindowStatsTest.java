package io.railgun.bench.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class WindowStatsTest {
    @Test
    void theLongestGapIsClippedToTheWindow() {
        long[] replies = {10, 20, 30, 100, 110};
        assertThat(WindowStats.longestGapNs(replies, 0, 50)).isEqualTo(20);      // 30 .. end at 50
        assertThat(WindowStats.longestGapNs(replies, 25, 120)).isEqualTo(70);    // 30 .. 100
        assertThat(WindowStats.longestGapNs(replies, 40, 60)).isEqualTo(20);     // no reply: the whole window
        assertThat(WindowStats.longestGapNs(replies, 0, 10)).isEqualTo(10);
    }

    @Test
    void countsAndLatencyAreThoseOfTheRequestsDueInTheWindow() {
        List<Attempt> attempts = List.of(new Attempt(0, 1, "n1", 0, 0, 5_000_000, 200, ""),
                new Attempt(1, 1, "n1", 1_000_000, 0, 9_000_000, 503, ""),
                new Attempt(2, 1, "n2", 2_000_000, 0, 3_000_000, Attempt.CONNECTION_ERROR, ""),
                new Attempt(3, 1, "n1", 50_000_000, 0, 60_000_000, 200, ""));
        WindowStats s = WindowStats.of(new FaultWindow("w", 0, 10_000_000), attempts, new long[] {5_000_000, 60_000_000});
        assertThat(s.requests()).isEqualTo(3);
        assertThat(s.ok()).isEqualTo(1);
        assertThat(s.unavailable()).isEqualTo(1);
        assertThat(s.connectionErrors()).isEqualTo(1);
        assertThat(s.maxMs()).isBetween(7.99, 8.01);
        assertThat(s.pauseMs()).isBetween(4.99, 5.01);
    }
}
