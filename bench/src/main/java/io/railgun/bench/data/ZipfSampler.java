package io.railgun.bench.data;

import java.util.SplittableRandom;

/**
 * Draws ranks 0..n-1 with probability proportional to 1/(rank+1)^s from a precomputed cumulative
 * table (binary search): exact, and fast enough for generating benchmark data up front.
 */
final class ZipfSampler {
    private final double[] cdf;

    ZipfSampler(int n, double s) {
        cdf = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += 1.0 / Math.pow(i + 1, s);
            cdf[i] = sum;
        }
        for (int i = 0; i < n; i++) {
            cdf[i] /= sum;
        }
    }

    int next(SplittableRandom random) {
        double u = random.nextDouble();
        int lo = 0;
        int hi = cdf.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cdf[mid] < u) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
