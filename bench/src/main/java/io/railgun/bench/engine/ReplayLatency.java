package io.railgun.bench.engine;

import java.util.Arrays;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * Per-event processing times of the timed part of an {@link EngineBench} run: per event, per task,
 * split by whether the event started a checkpoint, and a log of the slow ones; all preallocated,
 * so recording allocates nothing. Written and read by the replay thread only.
 */
final class ReplayLatency {
    /** Highest per-event time recorded (longer ones are clamped): one minute, in ns. */
    static final long HIGHEST_NS = 60_000_000_000L;
    /** Events slower than this are logged with their time in the run (checkpoint and GC pauses). */
    static final long SLOW_NS = 1_000_000L;

    final Histogram perEvent = new Histogram(HIGHEST_NS, 3);
    final Histogram[] perTask;
    /** Events during which a task started a checkpoint (or waited for the previous one), and the others. */
    final Histogram checkpointing = new Histogram(HIGHEST_NS, 3);
    final Histogram notCheckpointing = new Histogram(HIGHEST_NS, 3);
    final long[] slowAtNs = new long[1 << 16];
    final long[] slowNs = new long[1 << 16];
    final byte[] slowFlags = new byte[1 << 16];
    int slowLogged;
    long slowTotal;
    long slowTotalNs;
    long lastGcCount = GcWatchdog.gcCount();

    ReplayLatency(int tasks) {
        perTask = new Histogram[tasks];
        for (int i = 0; i < tasks; i++) {
            perTask[i] = new Histogram(HIGHEST_NS, 3);
        }
    }

    /**
     * The timed part is over: {@link #perEvent} is the two kinds of events together ({@link #perTask}
     * is recorded, and printed, only for a run of several tasks).
     */
    void finish() {
        perEvent.reset();
        perEvent.add(checkpointing);
        perEvent.add(notCheckpointing);
    }

    /** A slow event; flags: 1 it started a checkpoint, 2 a GC ended since the previous slow event. */
    void slow(long atNs, long ns, boolean checkpoint) {
        slowTotal++;
        slowTotalNs += ns;
        long gcs = GcWatchdog.gcCount();
        int flags = (checkpoint ? 1 : 0) | (gcs != lastGcCount ? 2 : 0);
        lastGcCount = gcs;
        if (slowLogged < slowNs.length) {
            slowAtNs[slowLogged] = atNs;
            slowFlags[slowLogged] = (byte) flags;
            slowNs[slowLogged++] = ns;
        }
    }

    /** The slowest events, in time order: "; slowest: 85 ms at 10.2 s, ...". */
    String slowest() {
        if (slowLogged == 0) {
            return "";
        }
        Integer[] order = new Integer[slowLogged];
        for (int i = 0; i < slowLogged; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compare(slowNs[b], slowNs[a]));
        Integer[] top = Arrays.copyOf(order, Math.min(8, order.length));
        Arrays.sort(top);
        StringBuilder sb = new StringBuilder("; slowest:");
        for (int i : top) {
            String tag = (slowFlags[i] & 1) != 0 ? "C" : "";
            tag += (slowFlags[i] & 2) != 0 ? "G" : "";
            sb.append(String.format(Locale.ROOT, " %.1f ms at %.1f s%s,", slowNs[i] / 1e6, slowAtNs[i] / 1e9,
                    tag.isEmpty() ? "" : " (" + tag + ")"));
        }
        sb.setLength(sb.length() - 1);
        return sb.toString();
    }

    /** A percentile of {@code h}, in µs. */
    static double us(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / 1e3;
    }
}
