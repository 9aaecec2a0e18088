package io.railgun.bench.plot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PercentileSeriesTest {

    /** 1..10,000 ms, one value each: the value at level p is about p × 10,000 ms. */
    private static Histogram uniformMs() {
        Histogram h = new Histogram(3_600_000_000_000L, 3);
        for (long ms = 1; ms <= 10_000; ms++) {
            h.recordValue(ms * 1_000_000);
        }
        return h;
    }

    @Test
    void pointsAreOutputPercentileDistributionsWithoutTheHundredPercentOne() {
        PercentileSeries s = PercentileSeries.of("r", uniformMs(), 1);

        assertThat(s.size()).isGreaterThan(20);
        assertThat(s.levels()[0]).isEqualTo(0.0);
        for (int i = 1; i < s.size(); i++) {
            assertThat(s.levels()[i]).isGreaterThanOrEqualTo(s.levels()[i - 1]);
            assertThat(s.latencyMs()[i]).isGreaterThanOrEqualTo(s.latencyMs()[i - 1]);
        }
        assertThat(java.util.Arrays.stream(s.levels()).allMatch(p -> p < 1.0)).isTrue();
        // the same points as the histogram's own percentiles, in ms
        for (int i = 0; i < s.size(); i++) {
            if (s.levels()[i] > 0.5 && s.levels()[i] < 0.9999) {
                assertThat(s.latencyMs()[i]).isCloseTo(s.levels()[i] * 10_000, within(0.002 * 10_000 + 1));
            }
        }
        // it reaches 99.99%, the highest level 10,000 values tell, and the max there
        assertThat(s.levels()[s.size() - 1]).isGreaterThanOrEqualTo(0.9999);
        assertThat(s.latencyMs()[s.size() - 1]).isCloseTo(10_000, within(10.0));
    }

    @Test
    void aShortRunsLineStillEndsAtItsMax() {
        Histogram h = new Histogram(3_600_000_000_000L, 3);
        h.recordValueWithCount(10_000_000, 90); // 10 ms
        h.recordValueWithCount(500_000_000, 10); // 500 ms
        PercentileSeries s = PercentileSeries.of("short", h, 1);
        assertThat(s.levels()[s.size() - 1]).isCloseTo(0.99, within(1e-12));
        assertThat(s.latencyMs()[s.size() - 1]).isCloseTo(500, within(1.0));
    }

    @Test
    void anEmptyHistogramGivesNoPoints() {
        assertThat(PercentileSeries.of("none", new Histogram(3), 1).size()).isZero();
    }

    @Test
    void unitScalesToMilliseconds() {
        Histogram us = new Histogram(3);
        us.recordValue(2_000); // 2,000 µs
        PercentileSeries s = PercentileSeries.of("µs", us, 1_000);
        assertThat(s.latencyMs()[0]).isCloseTo(2.0, within(0.01));
    }

    @Test
    void xIsOneOverOneMinusTheLevel() {
        assertThat(PercentileSeries.x(0.5)).isEqualTo(2.0);
        assertThat(PercentileSeries.x(0.99)).isCloseTo(100.0, within(1e-9));
        assertThat(LatencyPlot.percentLabel(2)).isEqualTo("50%");
        assertThat(LatencyPlot.percentLabel(10)).isEqualTo("90%");
        assertThat(LatencyPlot.percentLabel(1_000)).isEqualTo("99.9%");
        assertThat(LatencyPlot.percentLabel(10_000)).isEqualTo("99.99%");
    }

    @Test
    void histogramTextRoundTrips() {
        Histogram h = uniformMs();
        Histogram back = HistogramText.decode(HistogramText.encode(h));
        assertThat(back.getTotalCount()).isEqualTo(h.getTotalCount());
        assertThat(back.getValueAtPercentile(99.9)).isEqualTo(h.getValueAtPercentile(99.9));
    }

    @Test
    void writesAPng(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("plot.png");
        LatencyPlot.write(png, "test", List.of(PercentileSeries.of("uniform", uniformMs(), 1),
                PercentileSeries.of("empty", new Histogram(3), 1)));
        byte[] bytes = Files.readAllBytes(png);
        assertThat(bytes.length).isGreaterThan(1_000);
        assertThat(new String(bytes, 1, 3, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }
}
