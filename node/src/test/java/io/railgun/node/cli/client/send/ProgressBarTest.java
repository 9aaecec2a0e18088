package io.railgun.node.cli.client.send;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The progress line: bar, counts, rate and time left, redrawn in place; time is injected. */
class ProgressBarTest {

    @Test
    void withATotalItShowsTheBarPercentageRateAndTimeLeft() {
        assertThat(ProgressBar.line(4_200, 10_000, 2_000_000_000L, ""))
                .isEqualTo("[##########..............]  4,200/10,000   42%  2,100 ev/s  ETA 3s");
        assertThat(ProgressBar.line(10_000, 10_000, 4_000_000_000L, ""))
                .isEqualTo("[########################]  10,000/10,000  100%  2,500 ev/s  4s");
    }

    @Test
    void withoutATotalItShowsCountRateAndElapsedTime() {
        assertThat(ProgressBar.line(1_500, -1, 3_000_000_000L, "node busy (503): sending line 1's batch again in 1 s"))
                .isEqualTo("1,500 events  500 ev/s  3s  node busy (503): sending line 1's batch again in 1 s");
    }

    @Test
    void durationsReadAsMinutesAndHours() {
        assertThat(ProgressBar.duration(42)).isEqualTo("42s");
        assertThat(ProgressBar.duration(185)).isEqualTo("3m05s");
        assertThat(ProgressBar.duration(3_720)).isEqualTo("1h02m");
    }

    @Test
    void redrawsInPlaceAtMostEvery100MsAndErasesItselfAtTheEnd() {
        var text = new StringWriter();
        var clock = new AtomicLong();
        var bar = new ProgressBar(new PrintWriter(text), 300, clock::get);
        bar.update(100, "");
        bar.update(200, "");
        clock.addAndGet(100_000_000L);
        bar.update(300, "");
        bar.finish();
        String[] draws = text.toString().split("\r", -1);
        assertThat(draws[1]).contains("100/300");
        assertThat(draws[2]).contains("300/300");
        assertThat(text.toString()).doesNotContain("200/300").endsWith("\r");
        assertThat(draws[3]).isBlank();
    }
}
