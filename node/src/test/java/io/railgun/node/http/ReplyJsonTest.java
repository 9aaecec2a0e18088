package io.railgun.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.railgun.engine.reply.StreamReply;
import io.railgun.node.frontend.MetricInfo;
import io.railgun.node.frontend.PointRead;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReplyJsonTest {

    private static Map<String, Object> metrics(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void writesMetricsInOrderWithoutFalseFlags() {
        StreamReply r = new StreamReply("e1", false, false, metrics("z_sum", 12.5, "a_count", 2L, "m_last", "FR",
                "b_any", true, "c_avg", null));
        assertThat(Codec.json(g -> ReplyJson.writeReply(g, false, r))).isEqualTo(
                "{\"eventId\":\"e1\",\"metrics\":{\"z_sum\":12.5,\"a_count\":2,\"m_last\":\"FR\",\"b_any\":true,\"c_avg\":null}}");
    }

    @Test
    void writesFlagsOnlyWhenTrue() {
        assertThat(Codec.json(g -> ReplyJson.writeReply(g, false, new StreamReply("e1", true, false, Map.of()))))
                .isEqualTo("{\"eventId\":\"e1\",\"metrics\":{},\"duplicate\":true}");
        assertThat(Codec.json(g -> ReplyJson.writeReply(g, false, new StreamReply("e1", false, true, Map.of()))))
                .isEqualTo("{\"eventId\":\"e1\",\"metrics\":{},\"dropped\":\"late\"}");
        assertThat(Codec.json(g -> ReplyJson.writeReply(g, false, new StreamReply("e1", true, true, Map.of()))))
                .isEqualTo("{\"eventId\":\"e1\",\"metrics\":{},\"duplicate\":true,\"dropped\":\"late\"}");
    }

    @Test
    void doublesReadBackAsDoublesAndLongsAsIntegers() throws Exception {
        double[] values = {12.0, 0.0, -0.0, 0.1, 1e-300, 1e300, Double.MIN_VALUE, Double.MAX_VALUE, 1.0 / 3, 123456789.0,
                1e16, -7.25};
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
            m.put("d" + i, values[i]);
        }
        m.put("big", Long.MAX_VALUE);
        m.put("neg", Long.MIN_VALUE);
        String json = Codec.json(g -> ReplyJson.writeReply(g, false, new StreamReply("x", false, false, m)));
        assertThat(json).contains("\"d0\":12.0").contains("\"d9\":1.23456789E8");
        JsonNode back = TestHttp.JSON.readTree(json).path("metrics");
        for (int i = 0; i < values.length; i++) {
            assertThat(back.get("d" + i).isDouble()).as("d" + i).isTrue();
            assertThat(Double.doubleToLongBits(back.get("d" + i).doubleValue())).as("d" + i)
                    .isEqualTo(Double.doubleToLongBits(values[i]));
        }
        assertThat(back.get("big").isIntegralNumber()).isTrue();
        assertThat(back.get("big").longValue()).isEqualTo(Long.MAX_VALUE);
        assertThat(back.get("neg").longValue()).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void nonFiniteDoublesAreNull() {
        StreamReply r = new StreamReply("x", false, false, metrics("a", Double.NaN, "b", Double.POSITIVE_INFINITY,
                "c", Double.NEGATIVE_INFINITY));
        assertThat(Codec.json(g -> ReplyJson.writeReply(g, false, r)))
                .isEqualTo("{\"eventId\":\"x\",\"metrics\":{\"a\":null,\"b\":null,\"c\":null}}");
    }

    @Test
    void echoesLongEventIdsAsNumbers() {
        assertThat(Codec.json(g -> ReplyJson.writeReply(g, true, new StreamReply("42", false, false, Map.of()))))
                .isEqualTo("{\"eventId\":42,\"metrics\":{}}");
        assertThat(Codec.json(g -> ReplyJson.writeReply(g, false, new StreamReply("42", false, false, Map.of()))))
                .isEqualTo("{\"eventId\":\"42\",\"metrics\":{}}");
        assertThat(ReplyJson.numericEventId(EventJsonTest.NO_TIME)).isTrue();
        assertThat(ReplyJson.numericEventId(EventJsonTest.PAYMENTS)).isFalse();
    }

    @Test
    void writesBatchesInOrder() {
        List<StreamReply> replies = List.of(new StreamReply("b", false, false, metrics("n", 1L)),
                new StreamReply("a", true, false, metrics("n", 1L)));
        assertThat(Codec.json(g -> ReplyJson.writeReplies(g, false, replies))).isEqualTo(
                "[{\"eventId\":\"b\",\"metrics\":{\"n\":1}},{\"eventId\":\"a\",\"metrics\":{\"n\":1},\"duplicate\":true}]");
        assertThat(Codec.json(g -> ReplyJson.writeReplies(g, false, List.of()))).isEqualTo("[]");
    }

    @Test
    void writesPointReads() {
        MetricInfo metric = new MetricInfo("card_sum", "SELECT ...", "card", List.of("card", "mcc"));
        PointReadKey key = PointReadKey.parse(EventJsonTest.PAYMENTS, metric, "card=c1&mcc=5411");
        assertThat(Codec.json(g -> ReplyJson.writePointRead(g, new PointRead("card_sum", 12.5, 1_700_000_000_000L), key)))
                .isEqualTo("{\"metric\":\"card_sum\",\"key\":{\"card\":\"c1\",\"mcc\":5411},\"value\":12.5,"
                        + "\"streamTime\":1700000000000}");
        assertThat(Codec.json(g -> ReplyJson.writePointRead(g, new PointRead("card_sum", null, null), key)))
                .isEqualTo("{\"metric\":\"card_sum\",\"key\":{\"card\":\"c1\",\"mcc\":5411},\"value\":null,"
                        + "\"streamTime\":null}");
    }
}
