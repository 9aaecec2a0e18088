package io.railgun.node.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.client.FieldType;
import io.railgun.client.RailgunClient;
import io.railgun.client.StreamSpec;
import io.railgun.node.Node;
import io.railgun.node.NodeConfig;
import io.railgun.node.messaging.KafkaSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC §3.6 on a real node with the default body limit (16 MiB, far above Kafka's record size): an
 * event larger than a Kafka record is refused with 413 naming the limit, a batch holding one is
 * refused whole before any of it is sent, and bodies that are not strict UTF-8 are refused with 400.
 * Each refusal is followed by a good event whose count shows that nothing refused was counted.
 */
@Tag("kafka")
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class EventLimitsTest {
    private static final String EVENTS = "/v1/streams/items/events";
    private static final String BATCH = "/v1/streams/items/events:batch";

    @TempDir
    static Path dir;
    static Node node;
    static RailgunClient client;
    static RawHttp raw;
    static long counted;
    static int ids;

    @BeforeAll
    static void startNode() {
        node = Node.start(NodeConfig.defaults().withDataDir(dir.resolve("node")).withHttp("127.0.0.1", 0).withProcessors(1));
        client = RailgunClient.builder().baseUri(node.uri()).requestTimeout(Duration.ofSeconds(30)).build();
        raw = new RawHttp(node.uri());
        client.createStream("items", StreamSpec.builder().field("id", FieldType.STRING).field("k", FieldType.STRING)
                .field("note", FieldType.STRING).eventId("id").partitioners("k").partitions(1).build());
        client.addMetrics("items", "SELECT COUNT(*) AS n FROM items GROUP BY k [RANGE UNBOUNDED]");
        Refusals.firstEvent(client, "items", Map.of("id", "warm-up", "k", "other"));
    }

    @AfterAll
    static void stopNode() {
        if (node != null) {
            node.close();
        }
        if (client != null) {
            client.close();
        }
    }

    private static String event(String note) {
        return "{\"id\": \"e" + (++ids) + "\", \"k\": \"a\", \"note\": \"" + note + "\"}";
    }

    /** A good event is counted once more than every event counted before: nothing refused was. */
    private static void assertNothingElseCounted() {
        String reply = ok(raw.send("POST", EVENTS, event("ok")));
        counted++;
        assertThat(reply).contains("\"n\":" + counted);
    }

    @Test
    void anEventOverKafkasRecordSizeIs413WithTheLimit() {
        assertNothingElseCounted();
        String huge = "x".repeat(KafkaSettings.MAX_RECORD_BYTES);
        raw.send("POST", EVENTS, event(huge)).assertError(413, "event_too_large", Integer.toString(KafkaSettings.MAX_RECORD_BYTES));
        // just under the limit is stored and counted
        ok(raw.send("POST", EVENTS, event("y".repeat(KafkaSettings.MAX_RECORD_BYTES - 2048))));
        counted++;
        assertNothingElseCounted();
    }

    @Test
    void aBatchWithOneOversizedEventIsRefusedWholeBeforeAnyIsSent() {
        assertNothingElseCounted();
        List<String> events = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            events.add(event(i == 3 ? "z".repeat(KafkaSettings.MAX_RECORD_BYTES + 10) : "fine"));
        }
        raw.send("POST", BATCH, "[" + String.join(",", events) + "]").assertError(413, "event_too_large", "events[3]");
        assertNothingElseCounted();
    }

    @Test
    void bodiesThatAreNotStrictUtf8Are400() {
        assertNothingElseCounted();
        byte[][] bodies = {
            utf8WithBytesInNote((byte) 0xc0, (byte) 0xaf),                          // overlong '/'
            utf8WithBytesInNote((byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80), // U+110000
            utf8WithBytesInNote((byte) 0xed, (byte) 0xa0, (byte) 0x80),              // a surrogate
        };
        for (byte[] body : bodies) {
            raw.sendBytes("POST", EVENTS, body).assertError(400, "invalid_utf8", "UTF-8");
            raw.sendBytes("POST", BATCH, ("[" + new String(body, StandardCharsets.ISO_8859_1) + "]")
                    .getBytes(StandardCharsets.ISO_8859_1)).assertError(400, "invalid_utf8", "UTF-8");
        }
        raw.sendBytes("PUT", "/v1/streams/bad", utf8WithBytesInNote((byte) 0xff)).assertError(400, "invalid_utf8");
        assertNothingElseCounted();
    }

    private static String ok(RawHttp.Response r) {
        assertThat(r.status()).as(r.request() + " -> " + r.body()).isEqualTo(200);
        return r.body();
    }

    private static byte[] utf8WithBytesInNote(byte... bad) {
        byte[] head = ("{\"id\": \"u" + (++ids) + "\", \"k\": \"a\", \"note\": \"").getBytes(StandardCharsets.UTF_8);
        byte[] tail = "\"}".getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[head.length + bad.length + tail.length];
        System.arraycopy(head, 0, body, 0, head.length);
        System.arraycopy(bad, 0, body, head.length, bad.length);
        System.arraycopy(tail, 0, body, head.length + bad.length, tail.length);
        return body;
    }
}
