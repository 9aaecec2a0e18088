package io.railgun.node.http;

import static io.railgun.node.http.Codec.refused;
import static io.railgun.node.http.Codec.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.node.frontend.MetricInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetricJsonTest {

    private static MetricJson.AddStatement parse(String json) {
        byte[] b = utf8(json);
        return MetricJson.parse(b, b.length);
    }

    @Test
    void parsesQueryAndBackfill() {
        assertThat(parse("{\"query\": \"SELECT COUNT(*) FROM s GROUP BY c [RANGE 1 SECOND]\", \"backfill\": true}"))
                .isEqualTo(new MetricJson.AddStatement("SELECT COUNT(*) FROM s GROUP BY c [RANGE 1 SECOND]", true));
        assertThat(parse("{\"query\": \"q\"}").backfill()).isFalse();
        assertThat(parse("{\"query\": \"q\", \"backfill\": null}").backfill()).isFalse();
    }

    @Test
    void refusesBadBodies() {
        refused(() -> parse("{\"query\": \"q\", \"backfil\": true}"), 400, "unknown_key")
                .hasMessageContaining("unknown key \"backfil\"").hasMessageContaining("query and backfill");
        refused(() -> parse("{\"backfill\": true}"), 400, "invalid_request").hasMessageContaining("\"query\" is missing");
        refused(() -> parse("{\"query\": 5}"), 400, "invalid_request").hasMessageContaining("non-empty string");
        refused(() -> parse("{\"query\": \"  \"}"), 400, "invalid_request");
        refused(() -> parse("{\"query\": \"q\", \"backfill\": \"yes\"}"), 400, "invalid_request")
                .hasMessageContaining("true or false");
        refused(() -> parse("\"SELECT\""), 400, "invalid_request").hasMessageContaining("JSON object");
        refused(() -> parse("{\"query\": "), 400, "invalid_json");
        refused(() -> parse(""), 400, "invalid_json");
    }

    @Test
    void writesNamesAndLists() {
        assertThat(Codec.json(g -> MetricJson.writeNames(g, List.of("card_sum_5m", "card_count_5m"))))
                .isEqualTo("{\"metrics\":[\"card_sum_5m\",\"card_count_5m\"]}");
        assertThat(Codec.json(g -> MetricJson.writeList(g, List.of(new MetricInfo("n", "SELECT COUNT(*) AS n ...", "card",
                List.of("card", "mcc")))))).isEqualTo("{\"metrics\":[{\"name\":\"n\",\"statement\":\"SELECT COUNT(*) AS n "
                + "...\",\"partitioner\":\"card\",\"groupBy\":[\"card\",\"mcc\"]}]}");
    }
}
