package io.railgun.bench.e2e;

import io.railgun.bench.data.PaymentGenerator;
import io.railgun.client.FieldType;
import io.railgun.client.LateEvents;
import io.railgun.client.StreamSpec;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The queries of BENCHMARKS.md the e2e harness runs (the same text as the engine harness's
 * {@code Workloads}, P51 and EX1, with the stream's name in FROM) and the payments stream as the
 * HTTP API defines it. Immutable.
 *
 * @param query        P51, EX1 or FRAUD
 * @param statements   the statements, in the order they are added
 * @param partitioners the stream's partitioners: card, and merchant for EX1's AVG by merchant
 * @param sumMetric    the metric holding SUM(amount) by card, checked against the injector's sums at the end
 * @param windowMs     that metric's window
 */
record E2eWorkload(String query, List<String> statements, List<String> partitioners, String sumMetric, long windowMs) {

    static E2eWorkload of(String query, String stream) {
        return switch (query.toUpperCase(Locale.ROOT)) {
            case "P51" -> new E2eWorkload("P51",
                    List.of("SELECT SUM(amount) AS s FROM " + stream + " GROUP BY card [RANGE 60 MINUTES]"),
                    List.of("card"), "s", 3_600_000);
            case "EX1" -> new E2eWorkload("EX1", List.of(
                    "SELECT SUM(amount) AS card_sum_5m, COUNT(*) AS card_count_5m FROM " + stream
                            + " GROUP BY card [RANGE 5 MINUTES]",
                    "SELECT AVG(amount) AS merchant_avg_5m FROM " + stream + " GROUP BY merchant [RANGE 5 MINUTES]"),
                    List.of("card", "merchant"), "card_sum_5m", 300_000);
            // BENCHMARKS.md's fraud profile (the engine harness's FRAUD): windows of 1 minute to 180 days by
            // card and by merchant; its 180-day horizon keeps event ids for 180 days (most of them in RocksDB)
            case "FRAUD" -> new E2eWorkload("FRAUD", List.of(
                    "SELECT COUNT(*) AS c5m, SUM(amount) AS s5m, AVG(amount) AS a5m, MAX(amount) AS x5m FROM " + stream
                            + " GROUP BY card [RANGE 5 MINUTES]",
                    "SELECT COUNT(*) AS c1h, SUM(amount) AS s1h, AVG(amount) AS a1h, MAX(amount) AS x1h FROM " + stream
                            + " GROUP BY card [RANGE 1 HOUR]",
                    "SELECT COUNT(*) AS c24h, SUM(amount) AS s24h, AVG(amount) AS a24h, MAX(amount) AS x24h FROM "
                            + stream + " GROUP BY card [RANGE 24 HOURS]",
                    "SELECT COUNT(*) AS c30d, SUM(amount) AS s30d, AVG(amount) AS a30d, MAX(amount) AS x30d,"
                            + " STDDEV_SAMP(amount) AS sd30d FROM " + stream + " GROUP BY card [RANGE 30 DAYS]",
                    "SELECT COUNT(DISTINCT merchant) AS dm24h FROM " + stream + " GROUP BY card [RANGE 24 HOURS]",
                    "SELECT COUNT(DISTINCT country) AS dc180d FROM " + stream + " GROUP BY card [RANGE 180 DAYS]",
                    "SELECT COUNT(*) AS mc1m FROM " + stream + " GROUP BY merchant [RANGE 1 MINUTE]",
                    "SELECT AVG(amount) AS ma1h FROM " + stream + " GROUP BY merchant [RANGE 1 HOUR]",
                    "SELECT COUNT(*) AS online1h FROM " + stream + " WHERE online GROUP BY card [RANGE 1 HOUR]",
                    "SELECT COUNT(*) AS big24h FROM " + stream + " WHERE amount > 1000 GROUP BY card [RANGE 24 HOURS]",
                    "SELECT COUNT(*) AS cdelay FROM " + stream + " GROUP BY card [RANGE 1 HOUR DELAY 5 MINUTES]"),
                    List.of("card", "merchant"), "s5m", 300_000);
            default -> throw new IllegalArgumentException("the e2e harness runs P51, EX1 or FRAUD, not " + query);
        };
    }

    /** The payments stream (fields of {@link PaymentGenerator#FIELDS}, event id {@code id}, event time {@code ts}). */
    StreamSpec streamSpec(int partitions, String lateness) {
        StreamSpec.Builder b = StreamSpec.builder();
        for (Map.Entry<String, io.railgun.engine.schema.FieldType> f : PaymentGenerator.FIELDS.entrySet()) {
            b.field(f.getKey(), FieldType.valueOf(f.getValue().name()));
        }
        return b.eventId("id").timestamp("ts").partitioners(partitioners).partitions(partitions).lateness(lateness)
                .lateEvents(LateEvents.DROP).build();
    }
}
