package io.railgun.node.http;

import static io.railgun.node.http.Codec.refused;
import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRow;
import io.railgun.node.frontend.MetricInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

class PointReadKeyTest {
    // PAYMENTS fields: 0 id, 1 ts, 2 card, 3 merchant, 4 amount, 5 country, 6 online, 7 mcc
    static final MetricInfo BY_ALL = new MetricInfo("m", "SELECT ...", "card",
            List.of("card", "ts", "amount", "online", "mcc"));

    private static PointReadKey parse(MetricInfo metric, String query) {
        return PointReadKey.parse(EventJsonTest.PAYMENTS, metric, query);
    }

    @Test
    void convertsEachParameterByItsFieldType() {
        PointReadKey key = parse(BY_ALL, "card=c%201+x&ts=2024-01-01T00:00:00Z&amount=12.5&online=true&mcc=-7");
        EventRow row = new EventRow().wrap(key.row(), 0);
        assertThat(row.getString(2)).isEqualTo("c 1 x");
        assertThat(row.getLong(1)).isEqualTo(1_704_067_200_000L);
        assertThat(row.getDouble(4)).isEqualTo(12.5);
        assertThat(row.getBoolean(6)).isTrue();
        assertThat(row.getLong(7)).isEqualTo(-7);
        assertThat(row.isNull(0)).isTrue();
        assertThat(row.isNull(3)).isTrue();
        assertThat(row.length()).isEqualTo(key.row().length);
        assertThat(Codec.json(key::write)).isEqualTo(
                "{\"card\":\"c 1 x\",\"ts\":1704067200000,\"amount\":12.5,\"online\":true,\"mcc\":-7}");
    }

    @Test
    void timestampsTakeTheFormsEventsTake() {
        MetricInfo t = new MetricInfo("m", "q", "card", List.of("ts"));
        for (String value : List.of("1704067200000", "2024-01-01T00:00:00Z", "2024-01-01T02:00:00%2B02:00",
                "2024-01-01T02:00%2B0200", "2023-12-31T19:00:00-05", "2024-01-01T00:00:00", "2024-01-01T00:00",
                "2024-01-01", "2024-01-01t00:00:00z")) {
            EventRow row = new EventRow().wrap(parse(t, "ts=" + value).row(), 0);
            assertThat(row.getLong(1)).as(value).isEqualTo(1_704_067_200_000L);
        }
    }

    @Test
    void namesAreCaseInsensitiveAndOrderFree() {
        PointReadKey key = parse(BY_ALL, "MCC=1&Online=false&amount=3&ts=99&CARD=");
        assertThat(Codec.json(key::write)).isEqualTo("{\"card\":\"\",\"ts\":99,\"amount\":3.0,\"online\":false,\"mcc\":1}");
    }

    @Test
    void aParameterWithoutValueIsTheNullKey() {
        PointReadKey key = parse(new MetricInfo("m", "q", "card", List.of("card")), "card");
        assertThat(new EventRow().wrap(key.row(), 0).isNull(2)).isTrue();
        assertThat(Codec.json(key::write)).isEqualTo("{\"card\":null}");
    }

    @Test
    void refusesMissingExtraAndRepeatedParameters() {
        MetricInfo two = new MetricInfo("card_sum", "q", "card", List.of("card", "merchant"));
        refused(() -> parse(two, "card=c1"), 400, "missing_key")
                .hasMessage("missing merchant: metric 'card_sum' is keyed by its GROUP BY fields, so give one parameter "
                        + "each: ?card=...&merchant=...");
        refused(() -> parse(two, null), 400, "missing_key").hasMessageStartingWith("missing card, merchant:");
        refused(() -> parse(two, "card=c1&merchant=m&country=FR"), 400, "unknown_parameter")
                .hasMessageStartingWith("parameter 'country' is not a GROUP BY field of metric 'card_sum'");
        refused(() -> parse(two, "card=c1&card=c2&merchant=m"), 400, "duplicate_parameter");
    }

    @Test
    void refusesValuesOfTheWrongType() {
        MetricInfo m = new MetricInfo("m", "q", "card", List.of("mcc"));
        refused(() -> parse(m, "mcc=abc"), 400, "invalid_value")
                .hasMessage("parameter 'mcc': 'abc' is not valid for long field 'mcc'; give an integer in the 64-bit range");
        refused(() -> parse(m, "mcc=1.5"), 400, "invalid_value");
        refused(() -> parse(m, "mcc=9223372036854775808"), 400, "invalid_value");
        refused(() -> parse(m, "mcc="), 400, "invalid_value");
        MetricInfo d = new MetricInfo("m", "q", "card", List.of("amount"));
        refused(() -> parse(d, "amount=NaN"), 400, "invalid_value");
        refused(() -> parse(d, "amount=1e999"), 400, "invalid_value").hasMessageContaining("±1.8e308");
        refused(() -> parse(d, "amount=1d"), 400, "invalid_value");
        refused(() -> parse(d, "amount=0x10"), 400, "invalid_value");
        MetricInfo b = new MetricInfo("m", "q", "card", List.of("online"));
        refused(() -> parse(b, "online=yes"), 400, "invalid_value").hasMessageContaining("true or false");
        MetricInfo t = new MetricInfo("m", "q", "card", List.of("ts"));
        refused(() -> parse(t, "ts=yesterday"), 400, "invalid_value").hasMessageContaining("ISO-8601")
                .hasMessageContaining("without one it is UTC");
        // '+' in a query string is a space: the message says how to write the offset
        refused(() -> parse(t, "ts=2024-01-01T12:00:00+02:00"), 400, "invalid_value").hasMessageContaining("%2B");
        refused(() -> parse(t, "card=%zz"), 400, "invalid_query").hasMessageContaining("percent-encoding");
    }
}
