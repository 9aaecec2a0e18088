package io.railgun.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** How the client reads the node's replies: types, order, flags and shapes of SPEC §3. */
class RailgunClientResponseTest {
    private StubNode node;
    private RailgunClient client;

    @BeforeEach
    void start() throws IOException {
        node = new StubNode();
        client = RailgunClient.builder().baseUri(node.baseUri()).build();
    }

    @AfterEach
    void stop() {
        client.close();
        node.close();
    }

    @Test
    void integersAreLongsAndFractionsAreDoublesEvenWhenWhole() {
        node.reply(200, "{\"eventId\": \"e1\", \"metrics\": {\"count\": 2, \"sum\": 12.0, \"avg\": 2.5,"
                + " \"big\": 9007199254740993, \"exp\": 1e3, \"neg\": -0.0}}");

        EventReply reply = client.send("s", Map.of("id", "e1"));

        assertThat(reply.eventId()).isEqualTo("e1");
        assertThat(reply.metric("count")).isInstanceOf(Long.class).isEqualTo(2L);
        assertThat(reply.metric("sum")).isInstanceOf(Double.class).isEqualTo(12.0);
        assertThat(reply.metric("avg")).isEqualTo(2.5);
        assertThat(reply.metric("big")).isEqualTo(9_007_199_254_740_993L);
        assertThat(reply.metric("exp")).isInstanceOf(Double.class).isEqualTo(1000.0);
        assertThat(reply.metric("neg")).isInstanceOf(Double.class);
        assertThat(reply.duplicate()).isFalse();
        assertThat(reply.droppedLate()).isFalse();
    }

    @Test
    void metricsKeepTheNodesOrderAndNullValues() {
        node.reply(200, "{\"eventId\": \"e1\", \"metrics\": {\"z\": null, \"a\": \"FR\", \"m\": true, \"b\": null}}");

        EventReply reply = client.send("s", Map.of("id", "e1"));

        assertThat(reply.metrics().keySet()).containsExactly("z", "a", "m", "b");
        assertThat(reply.metrics()).containsEntry("z", null).containsEntry("a", "FR").containsEntry("m", true)
                .containsEntry("b", null);
    }

    @Test
    void duplicateAndDroppedLateFlags() {
        node.reply(200, "{\"eventId\": \"b\", \"metrics\": {\"n\": 1}, \"duplicate\": true}")
                .reply(200, "{\"eventId\": \"e\", \"metrics\": {\"n\": 2}, \"dropped\": \"late\"}");

        EventReply duplicate = client.send("s", Map.of("id", "b"));
        EventReply late = client.send("s", Map.of("id", "e"));

        assertThat(duplicate.duplicate()).isTrue();
        assertThat(duplicate.droppedLate()).isFalse();
        assertThat(duplicate.metrics()).containsExactly(entry("n", 1L));
        assertThat(late.duplicate()).isFalse();
        assertThat(late.droppedLate()).isTrue();
        assertThat(late.metrics()).containsExactly(entry("n", 2L));
    }

    @Test
    void aNumericEventIdIsGivenAsText() {
        node.reply(200, "{\"eventId\": 42, \"metrics\": {}}");

        assertThat(client.send("s", Map.of("id", 42L)).eventId()).isEqualTo("42");
    }

    @Test
    void asyncSendCompletesWithTheTypedReply() {
        node.reply(200, "{\"eventId\": \"e1\", \"metrics\": {\"sum\": 3.0}}");

        EventReply reply = client.sendAsync("s", Map.of("id", "e1")).join();

        assertThat(reply.metrics()).containsExactly(entry("sum", 3.0));
    }

    @Test
    void batchRepliesComeInOrder() {
        node.reply(200, "[{\"eventId\": \"f\", \"metrics\": {\"n\": 3}},"
                + " {\"eventId\": \"g\", \"metrics\": {\"n\": 1}, \"duplicate\": true},"
                + " {\"eventId\": \"h\", \"metrics\": {\"n\": 1}, \"dropped\": \"late\"}]");

        List<EventReply> replies = client.sendBatch("s", List.of(Map.of("id", "f"), Map.of("id", "g"), Map.of("id", "h")));

        assertThat(replies).extracting(EventReply::eventId).containsExactly("f", "g", "h");
        assertThat(replies).extracting(EventReply::duplicate).containsExactly(false, true, false);
        assertThat(replies).extracting(EventReply::droppedLate).containsExactly(false, false, true);
        assertThat(replies.getFirst().metric("n")).isEqualTo(3L);
    }

    @Test
    void asyncBatchCompletesWithTheReplies() {
        node.reply(200, "[{\"eventId\": \"f\", \"metrics\": {}}]");

        assertThat(client.sendBatchAsync("s", List.of(Map.of("id", "f"))).join()).extracting(EventReply::eventId)
                .containsExactly("f");
    }

    @Test
    void streamReadsBackThePutShape() {
        node.reply(200, "{\"name\": \"payments\", \"fields\": {\"id\": \"string\", \"ts\": \"timestamp\","
                + " \"card\": \"string\", \"merchant\": \"string\", \"amount\": \"double\", \"country\": \"string\","
                + " \"online\": \"boolean\", \"mcc\": \"long\"}, \"eventId\": \"id\", \"timestamp\": \"ts\","
                + " \"partitioners\": [\"card\", \"merchant\"], \"partitions\": 8, \"lateness\": \"5s\","
                + " \"lateEvents\": \"drop\", \"somethingNew\": {\"a\": 1}}");

        StreamSpec spec = client.stream("payments");

        assertThat(spec).isEqualTo(RailgunClientRequestTest.payments());
        assertThat(spec.fields().keySet()).containsExactly("id", "ts", "card", "merchant", "amount", "country", "online",
                "mcc");
        assertThat(spec.retention()).isNull();
        assertThat(spec.inputRetention()).isNull();
    }

    @Test
    void streamReadsTheInputRetentionInForce() {
        node.reply(200, "{\"fields\": {\"id\": \"long\"}, \"eventId\": \"id\", \"partitioners\": [\"id\"],"
                + " \"inputRetention\": \"forever\"}");

        assertThat(client.stream("s").inputRetention()).isEqualTo("forever");
    }

    @Test
    void streamWithoutOptionalAttributes() {
        node.reply(200, "{\"fields\": {\"k\": \"STRING\", \"id\": \"long\"}, \"eventId\": \"id\", \"timestamp\": null,"
                + " \"partitioners\": [\"k\"], \"lateness\": 0, \"retention\": \"7d\"}");

        StreamSpec spec = client.stream("s");

        assertThat(spec.fields()).containsExactly(entry("k", FieldType.STRING), entry("id", FieldType.LONG));
        assertThat(spec.timestamp()).isNull();
        assertThat(spec.partitions()).isZero();
        assertThat(spec.lateness()).isEqualTo("0ms");
        assertThat(spec.lateEvents()).isNull();
        assertThat(spec.retention()).isEqualTo("7d");
    }

    @Test
    void streamsListsNamesAndSpecsInTheNodesOrder() {
        node.reply(200, "{\"streams\": ["
                + "{\"name\": \"zeta\", \"fields\": {\"id\": \"string\"}, \"eventId\": \"id\", \"partitioners\": [\"id\"]},"
                + "{\"name\": \"alpha\", \"fields\": {\"id\": \"long\", \"c\": \"string\"}, \"eventId\": \"id\","
                + " \"partitioners\": [\"c\"], \"partitions\": 2}]}");

        Map<String, StreamSpec> streams = client.streams();

        assertThat(streams.keySet()).containsExactly("zeta", "alpha");
        assertThat(streams.get("alpha").partitioners()).containsExactly("c");
        assertThat(streams.get("alpha").partitions()).isEqualTo(2);
    }

    @Test
    void addMetricsReturnsTheNewNamesInOrder() {
        node.reply(201, "{\"metrics\": [\"card_sum_5m\", \"card_count_5m\"]}");

        assertThat(client.addMetrics("s", "SELECT ...", true)).containsExactly("card_sum_5m", "card_count_5m");
    }

    @Test
    void metricsListsNameStatementAndWhatElseTheNodeSays() {
        node.reply(200, "{\"metrics\": [{\"name\": \"n\", \"statement\": \"SELECT COUNT(*) AS n FROM s GROUP BY card"
                + " [RANGE 5 MINUTES]\", \"partitioner\": \"card\", \"groupBy\": [\"card\"]},"
                + " {\"name\": \"m\", \"statement\": \"SELECT MAX(x) AS m ...\"}]}");

        List<MetricInfo> metrics = client.metrics("s");

        assertThat(metrics).containsExactly(
                new MetricInfo("n", "SELECT COUNT(*) AS n FROM s GROUP BY card [RANGE 5 MINUTES]", "card", List.of("card")),
                new MetricInfo("m", "SELECT MAX(x) AS m ..."));
    }

    @Test
    void pointReadGivesMetricKeyValueAndStreamTime() {
        node.reply(200, "{\"metric\": \"card_sum_5m\", \"key\": {\"card\": \"c1\", \"mcc\": 5411},"
                + " \"value\": 12.0, \"streamTime\": 1700000000000}");

        PointRead read = client.read("s", "card_sum_5m", Map.of("card", "c1", "mcc", 5411L));

        assertThat(read.metric()).isEqualTo("card_sum_5m");
        assertThat(read.key()).containsExactly(entry("card", "c1"), entry("mcc", 5411L));
        assertThat(read.value()).isInstanceOf(Double.class).isEqualTo(12.0);
        assertThat(read.streamTime()).isEqualTo(1_700_000_000_000L);
    }

    @Test
    void pointReadOfAPartitionWithNoEventYet() {
        node.reply(200, "{\"metric\": \"n\", \"key\": {\"card\": \"c9\"}, \"value\": null, \"streamTime\": null}");

        PointRead read = client.read("s", "n", Map.of("card", "c9"));

        assertThat(read.value()).isNull();
        assertThat(read.streamTime()).isNull();
    }

    @Test
    void rawFastPathGivesStatusAndBytesUnparsed() {
        String body = "{\"eventId\": \"e1\", \"metrics\": {\"sum\": 12.0}}";
        node.reply(200, body).reply(503, "{\"error\": {\"code\": \"busy\", \"message\": \"retry\"}}", Map.of("Retry-After", "3"));

        RawResponse ok = client.sendJsonAsync("s", "{\"id\": \"e1\"}".getBytes(StandardCharsets.UTF_8)).join();
        RawResponse busy = client.sendJsonAsync("s", "{\"id\": \"e2\"}".getBytes(StandardCharsets.UTF_8)).join();

        assertThat(ok.status()).isEqualTo(200);
        assertThat(ok.isSuccess()).isTrue();
        assertThat(ok.body()).isEqualTo(body.getBytes(StandardCharsets.UTF_8));
        assertThat(client.decodeEventReply(ok).metric("sum")).isEqualTo(12.0);
        assertThat(busy.status()).isEqualTo(503);
        assertThat(busy.isSuccess()).isFalse();
        assertThat(busy.retryAfterSeconds()).isEqualTo(3);
        assertThat(busy.bodyText()).contains("busy");
    }

    @Test
    void healthIsTrueOn2xxAndFalseOtherwise() {
        node.reply(200, "ok").reply(503, "");

        assertThat(client.health()).isTrue();
        assertThat(client.health()).isFalse();
    }
}
