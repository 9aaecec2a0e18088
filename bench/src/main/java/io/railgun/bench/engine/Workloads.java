package io.railgun.bench.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The statements of each benchmark query of BENCHMARKS.md, over stream {@code payments}. */
final class Workloads {
    private Workloads() {}

    static final Map<String, List<String>> QUERIES = Map.of(
            "P51", List.of("SELECT SUM(amount) AS s FROM payments GROUP BY card [RANGE 60 MINUTES]"),
            "E1", List.of("SELECT SUM(amount) AS s, COUNT(*) AS n FROM payments GROUP BY card [RANGE 60 MINUTES]"),
            "EX1", List.of(
                    "SELECT SUM(amount) AS card_sum_5m, COUNT(*) AS card_count_5m FROM payments GROUP BY card [RANGE 5 MINUTES]",
                    "SELECT AVG(amount) AS merchant_avg_5m FROM payments GROUP BY merchant [RANGE 5 MINUTES]"),
            "FRAUD", List.of(
                    "SELECT COUNT(*) AS c5m, SUM(amount) AS s5m, AVG(amount) AS a5m, MAX(amount) AS x5m FROM payments GROUP BY card [RANGE 5 MINUTES]",
                    "SELECT COUNT(*) AS c1h, SUM(amount) AS s1h, AVG(amount) AS a1h, MAX(amount) AS x1h FROM payments GROUP BY card [RANGE 1 HOUR]",
                    "SELECT COUNT(*) AS c24h, SUM(amount) AS s24h, AVG(amount) AS a24h, MAX(amount) AS x24h FROM payments GROUP BY card [RANGE 24 HOURS]",
                    "SELECT COUNT(*) AS c30d, SUM(amount) AS s30d, AVG(amount) AS a30d, MAX(amount) AS x30d, STDDEV_SAMP(amount) AS sd30d FROM payments GROUP BY card [RANGE 30 DAYS]",
                    "SELECT COUNT(DISTINCT merchant) AS dm24h FROM payments GROUP BY card [RANGE 24 HOURS]",
                    "SELECT COUNT(DISTINCT country) AS dc180d FROM payments GROUP BY card [RANGE 180 DAYS]",
                    "SELECT COUNT(*) AS mc1m FROM payments GROUP BY merchant [RANGE 1 MINUTE]",
                    "SELECT AVG(amount) AS ma1h FROM payments GROUP BY merchant [RANGE 1 HOUR]",
                    "SELECT COUNT(*) AS online1h FROM payments WHERE online GROUP BY card [RANGE 1 HOUR]",
                    "SELECT COUNT(*) AS big24h FROM payments WHERE amount > 1000 GROUP BY card [RANGE 24 HOURS]",
                    "SELECT COUNT(*) AS cdelay FROM payments GROUP BY card [RANGE 1 HOUR DELAY 5 MINUTES]"));

    /** P52a: P51 over a window of the given size, e.g. {@code "7 DAYS"}. */
    static List<String> p52a(String window) {
        return List.of("SELECT SUM(amount) AS s FROM payments GROUP BY card [RANGE " + window.toUpperCase(Locale.ROOT) + "]");
    }

    /**
     * P52b: SUM, AVG and COUNT of amount by card over {@code windows} misaligned windows — window i
     * is {@code [RANGE (300 + 7i) SECONDS DELAY i SECONDS]}, so no two share a head (delay) or a tail
     * (size + delay = 300 + 8i s): 2 x windows reservoir cursors, all filled within 21 minutes of
     * event time for 120 windows.
     */
    static List<String> p52b(int windows) {
        List<String> statements = new ArrayList<>();
        for (int i = 0; i < windows; i++) {
            statements.add(String.format(Locale.ROOT,
                    "SELECT SUM(amount) AS s%d, AVG(amount) AS a%d, COUNT(*) AS c%d FROM payments GROUP BY card [RANGE %d SECONDS DELAY %d SECONDS]",
                    i, i, i, 300 + 7 * i, i));
        }
        return statements;
    }
}
