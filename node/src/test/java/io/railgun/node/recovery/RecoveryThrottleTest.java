package io.railgun.node.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The token bucket on a fake clock: the rate holds over time, an idle spell allows a tenth of a second of burst. */
class RecoveryThrottleTest {
    @Test
    void holdsTheRateAndBurstsAtMostATenthOfASecond() {
        AtomicLong now = new AtomicLong();
        RecoveryThrottle t = new RecoveryThrottle(1_000_000, now::get); // 1 MB/s
        assertThat(t.reserve(500_000)).isEqualTo(500_000_000L); // empty bucket: half a second
        now.addAndGet(500_000_000L);
        assertThat(t.reserve(100_000)).isEqualTo(100_000_000L);
        now.addAndGet(10_000_000_000L); // idle 10 s: at most 100 KB saved
        assertThat(t.reserve(100_000)).isZero();
        assertThat(t.reserve(1)).isGreaterThan(0);
        // over many pieces, bytes / time is the rate
        long waited = 0;
        for (int i = 0; i < 100; i++) {
            long w = t.reserve(50_000);
            now.addAndGet(w);
            waited += w;
        }
        assertThat(waited / 1e9).isBetween(4.9, 5.1);
    }

    @Test
    void refusesANonPositiveRate() {
        assertThatThrownBy(() -> new RecoveryThrottle(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
