package io.railgun.node.cli.client.send;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The one-line progress of {@code send} on stderr, redrawn in place with {@code \r} at most every
 * 100 ms: events sent, events per second, and with a known total a bar, the percentage and the time
 * left. {@link #finish()} erases it, leaving the line to the summary. Used by the sending thread only.
 */
final class ProgressBar {
    private static final long REDRAW_NS = 100_000_000L;
    private static final int BAR_WIDTH = 24;

    private final PrintWriter err;
    private final long total;
    private final LongSupplier nanoClock;
    private final long startNs;
    private long lastDrawNs;
    private boolean drawn;
    private int lastWidth;
    private long sent;
    private String note = "";

    /** @param total the number of events expected, or -1 when unknown (standard input) */
    ProgressBar(PrintWriter err, long total, LongSupplier nanoClock) {
        this.err = err;
        this.total = total;
        this.nanoClock = nanoClock;
        this.startNs = nanoClock.getAsLong();
    }

    /** Events sent so far, and a note such as "node busy (503): retrying in 1 s", or "". */
    void update(long sentEvents, String text) {
        this.sent = sentEvents;
        this.note = text;
        long now = nanoClock.getAsLong();
        if (!drawn || now - lastDrawNs >= REDRAW_NS) {
            draw(now);
        }
    }

    /** Redraws with the time passed, e.g. while waiting for a slow batch. */
    void tick() {
        update(sent, note);
    }

    void finish() {
        err.print("\r" + " ".repeat(lastWidth) + "\r");
        err.flush();
    }

    private void draw(long now) {
        String text = line(sent, total, now - startNs, note);
        err.print("\r" + text + " ".repeat(Math.max(0, lastWidth - text.length())));
        err.flush();
        lastWidth = text.length();
        lastDrawNs = now;
        drawn = true;
    }

    /**
     * {@code [##########..............]  4,200/10,000  42%  3,512 ev/s  ETA 2s}, or without a total
     * {@code 4,200 events  3,512 ev/s  1s}.
     */
    static String line(long sent, long total, long elapsedNs, String note) {
        double seconds = elapsedNs / 1e9;
        long rate = seconds > 0 ? Math.round(sent / seconds) : 0;
        var text = new StringBuilder();
        if (total > 0) {
            long shown = Math.min(sent, total);
            int filled = (int) (BAR_WIDTH * shown / total);
            text.append('[').append("#".repeat(filled)).append(".".repeat(BAR_WIDTH - filled)).append("]  ");
            text.append(String.format(Locale.ROOT, "%,d/%,d  %3d%%  %,d ev/s", sent, total, 100 * shown / total, rate));
            if (rate > 0 && sent < total) {
                text.append("  ETA ").append(duration((total - sent) / (double) rate));
            } else {
                text.append("  ").append(duration(seconds));
            }
        } else {
            text.append(String.format(Locale.ROOT, "%,d events  %,d ev/s  %s", sent, rate, duration(seconds)));
        }
        if (!note.isEmpty()) {
            text.append("  ").append(note);
        }
        return text.toString();
    }

    /** {@code 42s}, {@code 3m05s}, {@code 1h02m}. */
    static String duration(double seconds) {
        long s = Math.round(seconds);
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%dh%02dm", s / 3600, s % 3600 / 60);
    }
}
