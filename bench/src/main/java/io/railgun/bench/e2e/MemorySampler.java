package io.railgun.bench.e2e;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The node's memory over a run, sampled every few seconds on its own daemon thread: the process's
 * resident set (RSS, {@code /proc/<pid>/status} VmRSS, a child node only), its heap in use and its
 * tasks' RocksDB memory in the shared block cache (its {@code /metrics}:
 * {@code jvm_memory_used_bytes{area="heap"}}, {@code railgun_state_rocksdb_bytes}), against its state
 * memory budget ({@code railgun_state_memory_budget_bytes}). {@link #write} saves the samples as CSV
 * and plots them (MiB over minutes) as a PNG. Whether the node was still alive at each sample is
 * kept: a node that exits (out of memory) ends the series.
 */
final class MemorySampler implements AutoCloseable {
    private final long pid;
    private final URI metrics;
    private final long everyMs;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<long[]> samples = new ArrayList<>(); // ms since start, RSS, heap, RocksDB, budget
    private final Thread thread;
    private final long startMs = System.currentTimeMillis();
    private volatile boolean stop;
    private volatile boolean died;

    MemorySampler(long pid, URI node, long everyMs) {
        this.pid = pid;
        this.metrics = node.resolve("/metrics");
        this.everyMs = everyMs;
        this.thread = new Thread(this::loop, "memory-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    /** Whether the node's process exited while sampled. */
    boolean nodeDied() {
        return died || (pid > 0 && !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    }

    private void loop() {
        while (!stop) {
            long[] s = sample();
            if (s == null) {
                died = pid > 0 && !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
                if (died) {
                    return;
                }
            } else {
                synchronized (samples) {
                    samples.add(s);
                }
            }
            try {
                Thread.sleep(everyMs);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private long[] sample() {
        long rss = pid > 0 ? rssBytes(pid) : -1;
        long heap = -1;
        long rocks = -1;
        long budget = -1;
        try {
            String body = http.send(HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            for (String line : body.split("\n")) {
                if (line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\"")) {
                    heap = value(line);
                } else if (line.startsWith("railgun_state_rocksdb_bytes")) {
                    rocks = value(line);
                } else if (line.startsWith("railgun_state_memory_budget_bytes")) {
                    budget = value(line);
                }
            }
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        return new long[] {System.currentTimeMillis() - startMs, rss, heap, rocks, budget};
    }

    private static long value(String line) {
        return (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }

    private static long rssBytes(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or the process is gone
        }
        return -1;
    }

    /** The largest of each column so far: RSS, heap, RocksDB (bytes; -1 when never read). */
    long[] peaks() {
        long[] p = {-1, -1, -1};
        synchronized (samples) {
            for (long[] s : samples) {
                for (int i = 0; i < 3; i++) {
                    p[i] = Math.max(p[i], s[i + 1]);
                }
            }
        }
        return p;
    }

    /** Writes the samples to {@code csv} and their plot to {@code png}. */
    void write(Path csv, Path png, String title) throws IOException {
        List<long[]> copy;
        synchronized (samples) {
            copy = new ArrayList<>(samples);
        }
        StringBuilder b = new StringBuilder("seconds,rss_bytes,heap_bytes,rocksdb_bytes,budget_bytes\n");
        XYSeries rss = new XYSeries("RSS (process)");
        XYSeries heap = new XYSeries("heap in use");
        XYSeries rocks = new XYSeries("RocksDB (shared cache: blocks, memtables)");
        XYSeries budget = new XYSeries("state memory budget");
        for (long[] s : copy) {
            b.append(String.format(Locale.ROOT, "%.1f,%d,%d,%d,%d%n", s[0] / 1e3, s[1], s[2], s[3], s[4]));
            double minutes = s[0] / 60_000.0;
            add(rss, minutes, s[1]);
            add(heap, minutes, s[2]);
            add(rocks, minutes, s[3]);
            add(budget, minutes, s[4]);
        }
        Files.writeString(csv, b.toString());
        XYSeriesCollection data = new XYSeriesCollection();
        for (XYSeries s : List.of(rss, heap, rocks, budget)) {
            if (!s.isEmpty()) {
                data.addSeries(s);
            }
        }
        System.setProperty("java.awt.headless", "true");
        JFreeChart chart = ChartFactory.createXYLineChart(title, "minutes", "MiB", data, PlotOrientation.VERTICAL,
                true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        for (int i = 0; i < data.getSeriesCount(); i++) {
            plot.getRenderer().setSeriesStroke(i, new BasicStroke(2f));
        }
        ChartUtils.saveChartAsPNG(png.toFile(), chart, 1100, 650);
    }

    private static void add(XYSeries series, double minutes, long bytes) {
        if (bytes >= 0) {
            series.add(minutes, bytes / (double) (1 << 20));
        }
    }

    @Override
    public void close() {
        stop = true;
        thread.interrupt();
        try {
            thread.join(15_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
