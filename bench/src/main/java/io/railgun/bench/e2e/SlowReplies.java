package io.railgun.bench.e2e;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The measured replies slower than the slow threshold, as episodes: replies whose intended send
 * times are less than {@link #GAP_NS} apart belong to one episode (a GC pause, a checkpoint, a
 * rebalance show up as one episode with many replies). Immutable.
 *
 * @param total     slow replies in the measured part
 * @param atNs      intended send time of each kept one, from the start of the measured part
 * @param latencyNs its latency
 */
record SlowReplies(long total, long[] atNs, long[] latencyNs) {
    static final long GAP_NS = 100_000_000;

    /** One episode: from its first to its last slow reply's send time, relative to the measured start. */
    record Episode(long startNs, long endNs, int replies, long maxLatencyNs) {}

    /** The episodes, worst first (by their slowest reply). */
    List<Episode> episodes() {
        Integer[] order = new Integer[atNs.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, Comparator.comparingLong(i -> atNs[i]));
        List<Episode> episodes = new ArrayList<>();
        int k = 0;
        while (k < order.length) {
            long start = atNs[order[k]];
            long end = start;
            long max = 0;
            int n = 0;
            while (k < order.length && atNs[order[k]] - end <= GAP_NS) {
                end = atNs[order[k]];
                max = Math.max(max, latencyNs[order[k]]);
                n++;
                k++;
            }
            episodes.add(new Episode(start, end, n, max));
        }
        episodes.sort(Comparator.comparingLong(Episode::maxLatencyNs).reversed());
        return episodes;
    }
}
