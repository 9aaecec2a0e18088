package io.railgun.bench.plot;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * One line of a percentile-distribution plot: the points that HdrHistogram's {@code
 * outputPercentileDistribution} prints for a latency histogram (its percentile iteration, halving the
 * distance to 100% in {@code ticksPerHalfDistance} steps), as percentile levels (0..1) and latencies
 * in ms. The 100% point is left out: its x, {@code 1/(1-p)}, is infinite; in its place the line ends
 * at the max, at the highest level {@code n} values can tell, {@code 1 - 1/n} (so a short run's line
 * still reaches its max, where the iteration would stop earlier). Immutable.
 *
 * @param label     the legend's text, e.g. {@code 5,000 ev/s}
 * @param levels    percentile levels, ascending, each below 1
 * @param latencyMs the latency at each level, in ms
 */
public record PercentileSeries(String label, double[] levels, double[] latencyMs) {

    /** Steps per halving of the distance to 100%: outputPercentileDistribution's usual 5. */
    public static final int TICKS_PER_HALF_DISTANCE = 5;

    public PercentileSeries {
        if (levels.length != latencyMs.length) {
            throw new IllegalArgumentException("levels and latencies differ in length");
        }
    }

    /** The series of a histogram of latencies in {@code unitNs} nanoseconds per unit (1 for ns). */
    public static PercentileSeries of(String label, AbstractHistogram histogram, double unitNs) {
        List<double[]> points = new ArrayList<>();
        if (histogram.getTotalCount() > 0) {
            for (HistogramIterationValue v : histogram.percentiles(TICKS_PER_HALF_DISTANCE)) {
                double level = v.getPercentileLevelIteratedTo() / 100.0;
                if (level >= 1.0) {
                    break;
                }
                points.add(new double[] {level, v.getValueIteratedTo() * unitNs / 1e6});
            }
            double last = histogram.getTotalCount() > 1 ? 1 - 1.0 / histogram.getTotalCount() : 0;
            if (points.isEmpty() || points.getLast()[0] < last) {
                points.add(new double[] {last, histogram.getMaxValue() * unitNs / 1e6});
            }
        }
        double[] levels = new double[points.size()];
        double[] ms = new double[points.size()];
        for (int i = 0; i < levels.length; i++) {
            levels[i] = points.get(i)[0];
            ms[i] = points.get(i)[1];
        }
        return new PercentileSeries(label, levels, ms);
    }

    /** The plot's x for a percentile level: {@code 1/(1-p)}, so 90% is 10, 99% 100, 99.9% 1,000. */
    public static double x(double level) {
        return 1.0 / (1.0 - level);
    }

    public int size() {
        return levels.length;
    }
}
