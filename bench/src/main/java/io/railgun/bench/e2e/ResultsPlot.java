package io.railgun.bench.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railgun.bench.plot.HistogramText;
import io.railgun.bench.plot.LatencyPlot;
import io.railgun.bench.plot.PercentileSeries;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The e2e harness's latency-by-percentile plots ({@link LatencyPlot}): one line per rate of a run,
 * written next to its JSON; or, for {@code --plot}, one line per rate of each of several results
 * files (e.g. the same command on three collectors), read back from their encoded histograms.
 * Stateless.
 */
final class ResultsPlot {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ResultsPlot() {}

    /** The plot of a run's rates. */
    static void plotRun(Path png, E2eOptions o, List<RunFigures> figures) throws IOException {
        List<PercentileSeries> series = new ArrayList<>();
        for (RunFigures f : figures) {
            series.add(PercentileSeries.of(lineLabel("", f.rate(), f.batch(), f.ms(99.9), f.errors()), f.latency(), 1));
        }
        LatencyPlot.write(png, String.format(Locale.ROOT, "e2e %s, %s node%s%s: latency by percentile", o.query(),
                o.mode(), o.label().isEmpty() ? "" : " (" + o.label() + ")",
                o.batch() > 1 ? ", batches of " + o.batch() : ""), series);
    }

    /** {@code --plot}: every rate of every file in one PNG; the exit code. */
    static int plotFiles(List<String> files, Path png) throws IOException {
        List<PercentileSeries> series = new ArrayList<>();
        List<String> queries = new ArrayList<>();
        for (String file : files) {
            Path path = Path.of(file.strip());
            String name = path.getFileName().toString().replaceFirst("\\.json$", "");
            for (String line : Files.readAllLines(path)) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode run = JSON.readTree(line);
                if (!run.hasNonNull("latencyHistogram")) {
                    System.err.println("bench/run e2e --plot: " + path + " has a run without its histogram (written"
                            + " before the harness kept them): left out");
                    continue;
                }
                String query = run.path("query").asText();
                if (!queries.contains(query)) {
                    queries.add(query);
                }
                series.add(PercentileSeries.of(lineLabel(name, run.path("rate").asDouble(),
                                run.path("batch").asInt(1), run.path("p999Ms").asDouble(Double.NaN),
                                run.path("errors").asLong()),
                        HistogramText.decode(run.path("latencyHistogram").asText()), 1));
            }
        }
        if (series.isEmpty()) {
            System.err.println("bench/run e2e --plot: no run to plot in " + files);
            return 1;
        }
        if (png.getParent() != null) {
            Files.createDirectories(png.getParent());
        }
        LatencyPlot.write(png, "e2e " + String.join(", ", queries) + ": latency by percentile", series);
        System.out.println("latency by percentile: " + png.toAbsolutePath());
        return 0;
    }

    /** {@code [name: ]5,000 ev/s[, batches of 100] (p99.9 12.3 ms[, 5 errors])}. */
    static String lineLabel(String name, double rate, int batch, double p999Ms, long errors) {
        return String.format(Locale.ROOT, "%s%,.0f ev/s%s (p99.9 %.1f ms%s)", name.isEmpty() ? "" : name + ": ", rate,
                batch > 1 ? ", batches of " + batch : "", p999Ms,
                errors > 0 ? String.format(Locale.ROOT, ", %,d errors", errors) : "");
    }
}
