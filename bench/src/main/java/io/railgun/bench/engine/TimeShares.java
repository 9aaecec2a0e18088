package io.railgun.bench.engine;

import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Where a run's time went by event speed: the share of the timed events' total time spent in
 * events up to the median, up to 2×, 4×, 16× and 64× it, and beyond. A mean well above the median
 * is either a broad spread or a few slow events; this tells which, and so whether to look at the
 * common path or at what makes some events slow.
 */
final class TimeShares {
    private static final double[] TIMES_MEDIAN = {1, 2, 4, 16, 64};

    private TimeShares() {}

    static String of(Histogram h) {
        double median = h.getValueAtPercentile(50);
        double[] sums = new double[TIMES_MEDIAN.length + 1];
        double total = 0;
        for (HistogramIterationValue v : h.recordedValues()) {
            double ns = h.medianEquivalentValue(v.getValueIteratedTo());
            double t = ns * v.getCountAtValueIteratedTo();
            total += t;
            int band = 0;
            while (band < TIMES_MEDIAN.length && ns > TIMES_MEDIAN[band] * median) {
                band++;
            }
            sums[band] += t;
        }
        StringBuilder b = new StringBuilder("share of the time in events of: ≤ p50 ");
        for (int i = 0; i < sums.length; i++) {
            if (i > 0) {
                b.append(i < TIMES_MEDIAN.length ? String.format(Locale.ROOT, ", ≤ %.0f× p50 ", TIMES_MEDIAN[i])
                        : String.format(Locale.ROOT, ", > %.0f× p50 ", TIMES_MEDIAN[i - 1]));
            }
            b.append(String.format(Locale.ROOT, "%.0f%%", total == 0 ? 0 : 100 * sums[i] / total));
        }
        return b.toString();
    }
}
