package io.railgun.engine.query;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MetricNamesTest {

    private static String name(String statement) throws QueryException {
        Statement s = QueryParser.parse(statement);
        return MetricNames.derive(s.aggregates().get(0), s.groupBy(), s.window());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "SELECT SUM(amount) FROM p GROUP BY card [RANGE 5 MINUTES] | sum_amount_by_card_5m",
        "SELECT COUNT(*) FROM p GROUP BY card, merchant [RANGE 1 HOUR] | count_by_card_merchant_1h",
        "SELECT COUNT(DISTINCT country) FROM p GROUP BY card [RANGE 180 DAYS] | count_distinct_country_by_card_180d",
        "SELECT AVG(amount) FROM p GROUP BY merchant [RANGE 30 DAYS DELAY 1 MINUTE] | avg_amount_by_merchant_30d_delay_1m",
        "SELECT COUNT(*) FROM p GROUP BY card [TUMBLING 1 HOUR] | count_by_card_tumbling_1h",
        "SELECT COUNT(*) FROM p GROUP BY card [RANGE UNBOUNDED] | count_by_card_unbounded",
        "SELECT count(amount) FROM p GROUP BY Card [range 90 seconds] | count_amount_by_card_90s",
        "SELECT STDDEV(amount) FROM p GROUP BY card [RANGE 7 DAYS] | stddev_samp_amount_by_card_1w",
        "SELECT STDDEV_POP(amount) FROM p GROUP BY card [RANGE 14 DAYS] | stddev_pop_amount_by_card_2w",
        "SELECT VAR_SAMP(Amount) FROM p GROUP BY card [RANGE 1500 MILLISECONDS] | var_samp_amount_by_card_1500ms",
        "SELECT VAR_POP(amount) FROM p GROUP BY card [RANGE 120 MINUTES] | var_pop_amount_by_card_2h",
        "SELECT LAST(amount) FROM p GROUP BY card [RANGE 24 HOURS] | last_amount_by_card_1d",
        "SELECT MIN(amount) FROM p GROUP BY card [RANGE 1 HOUR DELAY 30 SECONDS] | min_amount_by_card_1h_delay_30s",
        "SELECT MAX(\"Amount (EUR)\") FROM p GROUP BY \"card-id\" [RANGE 60 SECONDS] | max_amount_eur_by_card_id_1m",
        "SELECT SUM(amount * 2) FROM p GROUP BY card [RANGE 5 MINUTES] | sum_amount_times_2_by_card_5m",
        "SELECT SUM(amount - -1.5) FROM p GROUP BY card [RANGE 5 MINUTES] | sum_amount_minus_neg_1_5_by_card_5m",
        "SELECT COUNT(country IN ('FR', 'DE')) FROM p GROUP BY card [RANGE 5 MINUTES] | count_country_in_fr_de_by_card_5m",
        "SELECT COUNT(x IS NOT NULL) FROM p GROUP BY card [RANGE 5 MINUTES] | count_x_is_not_null_by_card_5m",
        "SELECT SUM(-amount) FROM p GROUP BY card [RANGE 5 MINUTES] | sum_neg_amount_by_card_5m",
    })
    void derivesReadableNames(String statement, String expected) throws QueryException {
        assertThat(name(statement)).isEqualTo(expected);
    }

    @Test
    void durationsUseTheLargestExactUnit() {
        assertThat(MetricNames.duration(90_000)).isEqualTo("90s");
        assertThat(MetricNames.duration(300_000)).isEqualTo("5m");
        assertThat(MetricNames.duration(604_800_000)).isEqualTo("1w");
        assertThat(MetricNames.duration(86_400_000L * 8)).isEqualTo("8d");
        assertThat(MetricNames.duration(1)).isEqualTo("1ms");
        assertThat(MetricNames.duration(1001)).isEqualTo("1001ms");
        assertThat(MetricNames.duration(0)).isEqualTo("0ms");
        assertThat(MetricNames.duration(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE + "ms");
    }

    @Test
    void longExpressionsAreShortenedWithAStableHash() throws QueryException {
        String a = name("SELECT SUM(amount * 2 + fee * 3 - tax / 4 + tip * 5 + extra) FROM p GROUP BY card [RANGE 5 MINUTES]");
        String b = name("SELECT SUM(amount * 2 + fee * 3 - tax / 4 + tip * 5 + other) FROM p GROUP BY card [RANGE 5 MINUTES]");
        assertThat(a).matches("sum_amount_times_2_plus_fee_times_3_[0-9a-f]{8}_by_card_5m");
        assertThat(a).isNotEqualTo(b);
        assertThat(name("SELECT SUM(AMOUNT * 2 + FEE * 3 - TAX / 4 + TIP * 5 + EXTRA) FROM p GROUP BY card [RANGE 5 MINUTES]"))
                .isEqualTo(a);
    }

    @Test
    void aliasWinsInOf() throws QueryException {
        Statement s = QueryParser.parse("SELECT SUM(amount) AS Total FROM p GROUP BY card [RANGE 5 MINUTES]");
        assertThat(MetricNames.of(s.aggregates().get(0), s.groupBy(), s.window())).isEqualTo("Total");
        assertThat(MetricNames.derive(s.aggregates().get(0), s.groupBy(), s.window())).isEqualTo("sum_amount_by_card_5m");
    }
}
