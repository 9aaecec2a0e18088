package io.railgun.bench.faults;

import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The figures of one {@link FaultWindow}, from the generator's records: requests due in the window
 * by outcome, the latency of those that got an HTTP reply (p50, p99, p99.9, max; from when each was
 * due), and the longest pause in replies, i.e. the largest gap between successive 200 replies (of the
 * whole run) that overlaps the window.
 */
record WindowStats(String name, double spanS, long requests, long ok, long unavailable, long other,
                   long connectionErrors, double pauseMs, double p50Ms, double p99Ms, double p999Ms, double maxMs) {

    static final String HEADER = String.format("%-22s %6s %7s %7s %5s %5s %5s %9s %8s %8s %8s %9s",
            "window", "span_s", "sent", "200", "503", "other", "conn", "pause_ms", "p50_ms", "p99_ms", "p99.9_ms",
            "max_ms");

    /**
     * @param okReplyTimesNs the completion times of every 200 reply of the run, sorted
     */
    static WindowStats of(FaultWindow w, List<Attempt> attempts, long[] okReplyTimesNs) {
        Histogram latency = new Histogram(3_600_000_000_000L, 3);
        long requests = 0;
        long ok = 0;
        long unavailable = 0;
        long other = 0;
        long connection = 0;
        for (Attempt a : attempts) {
            if (a.dueNs() < w.startNs() || a.dueNs() >= w.endNs()) {
                continue;
            }
            requests++;
            switch (a.status()) {
                case 200 -> ok++;
                case 503 -> unavailable++;
                case Attempt.CONNECTION_ERROR -> connection++;
                default -> other++;
            }
            if (a.status() != Attempt.CONNECTION_ERROR) {
                latency.recordValue(Math.max(0, Math.min(latency.getHighestTrackableValue(), a.latencyNs())));
            }
        }
        return new WindowStats(w.name(), (w.endNs() - w.startNs()) / 1e9, requests, ok, unavailable, other, connection,
                longestGapNs(okReplyTimesNs, w.startNs(), w.endNs()) / 1e6, ms(latency, 50), ms(latency, 99),
                ms(latency, 99.9), latency.getTotalCount() == 0 ? 0 : latency.getMaxValue() / 1e6);
    }

    /**
     * The longest time without a 200 reply inside [start, end]: the gaps between successive times of
     * {@code sorted}, each clipped to the window (a pause that spans a window's edge counts in both
     * windows for the part inside each); the window's edges count as replies, so a window with no
     * reply at all is one whole pause.
     */
    static long longestGapNs(long[] sorted, long startNs, long endNs) {
        int first = Arrays.binarySearch(sorted, startNs);
        first = first >= 0 ? first : -first - 1; // first reply at or after the start
        long previous = startNs;
        long longest = 0;
        for (int i = first; i < sorted.length && sorted[i] <= endNs; i++) {
            longest = Math.max(longest, sorted[i] - previous);
            previous = sorted[i];
        }
        return Math.max(longest, endNs - previous);
    }

    private static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1e6;
    }

    String line() {
        return String.format("%-22s %6.1f %7d %7d %5d %5d %5d %9.0f %8.1f %8.1f %8.1f %9.1f", name, spanS, requests, ok,
                unavailable, other, connectionErrors, pauseMs, p50Ms, p99Ms, p999Ms, maxMs);
    }
}
