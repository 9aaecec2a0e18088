package io.railgun.bench.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTick;
import org.jfree.chart.axis.ValueTick;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * A latency-by-percentile plot as in HdrHistogram's plotter and the paper's Figures 8–10: x is the
 * percentile on a log scale of {@code 1/(1-p)} (ticks 50%, 90%, 99%, 99.9%, 99.99%, 99.999%), y the
 * latency in ms, one line per {@link PercentileSeries} (a rate, a configuration). Written as a PNG
 * with JFreeChart in headless AWT. Stateless.
 */
public final class LatencyPlot {
    private static final int WIDTH = 1100;
    private static final int HEIGHT = 650;
    private static final double[] TICKS = {2, 10, 100, 1_000, 10_000, 100_000, 1_000_000};
    private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
            new Color(0xff7f0e), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f),
            new Color(0xbcbd22), new Color(0x17becf)};

    private LatencyPlot() {}

    /** Writes the plot of {@code series} (empty ones are left out) to {@code png}. */
    public static void write(Path png, String title, List<PercentileSeries> series) throws IOException {
        System.setProperty("java.awt.headless", "true");
        XYSeriesCollection data = new XYSeriesCollection();
        double maxX = TICKS[1];
        for (PercentileSeries s : series) {
            if (s.size() == 0) {
                continue;
            }
            XYSeries line = new XYSeries(s.label(), false, true);
            for (int i = 0; i < s.size(); i++) {
                double x = PercentileSeries.x(s.levels()[i]);
                line.add(x, s.latencyMs()[i]);
                maxX = Math.max(maxX, x);
            }
            data.addSeries(line);
        }
        LogAxis xAxis = new PercentileAxis("percentile");
        xAxis.setRange(1, Math.max(maxX * 1.5, 12_000)); // 99.99% at least, so plots compare
        NumberAxis yAxis = new NumberAxis("latency (ms)");
        yAxis.setAutoRangeIncludesZero(true);
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
        for (int i = 0; i < data.getSeriesCount(); i++) {
            renderer.setSeriesPaint(i, COLORS[i % COLORS.length]);
            renderer.setSeriesStroke(i, new BasicStroke(2f));
        }
        XYPlot plot = new XYPlot(data, xAxis, yAxis, renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 15), plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, WIDTH, HEIGHT);
    }

    /** The label of a tick at {@code x = 1/(1-p)}: {@code 50%}, {@code 99.9%}. */
    static String percentLabel(double x) {
        double percent = 100 * (1 - 1 / x);
        String text = String.format(Locale.ROOT, "%.6f", percent).replaceAll("0+$", "").replaceAll("\\.$", "");
        return text + "%";
    }

    /** A log axis whose ticks are the usual percentiles, labelled as such. */
    private static final class PercentileAxis extends LogAxis {
        private static final long serialVersionUID = 1L;

        PercentileAxis(String label) {
            super(label);
            setBase(10);
        }

        @Override
        protected List<ValueTick> refreshTicksHorizontal(Graphics2D g2, Rectangle2D dataArea, RectangleEdge edge) {
            List<ValueTick> ticks = new ArrayList<>();
            for (double t : TICKS) {
                if (getRange().contains(t)) {
                    ticks.add(new NumberTick(t, percentLabel(t), TextAnchor.TOP_CENTER, TextAnchor.CENTER, 0.0));
                }
            }
            return ticks;
        }
    }
}
