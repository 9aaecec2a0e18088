package io.railgun.node.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railgun.node.Node;
import io.railgun.node.NodeConfig;
import io.railgun.node.cli.client.ClientContext;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client commands against a real node (embedded Kafka broker, in this JVM): a stream from a
 * YAML file, metrics added and removed, 1,000 payments sent from CSV whose replies are checked
 * against sums computed here, a duplicate row, the same file sent again with batches in parallel
 * (every event a duplicate, answered with the final values), point reads and a delete.
 */
@Tag("kafka")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class CliAgainstNodeTest {
    private static final int EVENTS = 1_000;
    private static final int CARDS = 17;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static Node node;

    private StringWriter out;
    private StringWriter err;

    @BeforeAll
    static void startNode() {
        node = Node.start(NodeConfig.defaults().withDataDir(dir.resolve("node")).withHttp("127.0.0.1", 0)
                .withProcessors(2));
    }

    @AfterAll
    static void stopNode() {
        if (node != null) {
            node.close();
        }
    }

    private int run(String... args) {
        out = new StringWriter();
        err = new StringWriter();
        var context = new ClientContext(Map.of("RAILGUN_URL", node.uri().toString()),
                () -> new ByteArrayInputStream(new byte[0]), () -> false, () -> false);
        var cl = Main.commandLine(Map.of(), config -> {
            throw new IllegalStateException("no second node");
        }, (dataDir, port, overrides) -> {
            throw new IllegalStateException("no broker");
        }, context);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void createsAStreamAddsMetricsSendsACsvAndReadsTheValuesBack() throws Exception {
        Path definition = Files.writeString(dir.resolve("payments.yaml"), """
                # the payments of the README
                fields:
                  id: string
                  ts: timestamp
                  card: string
                  amount: double
                  online: boolean
                eventId: id
                timestamp: ts
                partitioners: [card]
                partitions: 3
                lateness: 5s
                """);
        assertThat(run("streams", "create", "payments", "--file", definition.toString())).as(err.toString()).isZero();
        assertThat(out.toString()).isEqualTo("created stream payments (5 fields, partitioned by card)\n");
        assertThat(run("metrics", "add", "payments", "SELECT SUM(amount) AS card_sum, COUNT(*) AS card_count"
                + " FROM payments GROUP BY card [RANGE 10 MINUTES]")).as(err.toString()).isZero();
        assertThat(out.toString()).isEqualTo("added metrics card_sum, card_count to stream payments\n");
        assertThat(run("metrics", "add", "payments", "SELECT MAX(amount) AS card_max FROM payments GROUP BY card"
                + " [RANGE 1 MINUTE]", "--json")).isZero();
        assertThat(out.toString()).isEqualTo("{\"metrics\":[\"card_max\"]}\n");
        assertThat(run("metrics", "remove", "payments", "card_max")).isZero();
        assertThat(run("metrics", "list", "payments", "--json")).isZero();
        assertThat(JSON.readTree(out.toString()).path("metrics").findValuesAsText("name"))
                .containsExactly("card_sum", "card_count");

        // 1,000 payments within 200 s, so that the 10-minute window holds them all: each reply is the running
        // sum and count of its card. One row repeats an earlier id: it answers duplicate and counts once.
        var random = new Random(14);
        var csv = new StringBuilder("id,ts,card,amount,online\n");
        String[] ids = new String[EVENTS];
        String[] cards = new String[EVENTS];
        long[] cents = new long[EVENTS];
        long ts = 1_700_000_000_000L;
        for (int i = 0; i < EVENTS; i++) {
            ts += random.nextInt(200);
            ids[i] = i == 500 ? ids[123] : "p" + i;
            cards[i] = i == 500 ? cards[123] : "c" + random.nextInt(CARDS);
            cents[i] = 1 + random.nextInt(100_000);
            csv.append(ids[i]).append(',').append(ts).append(',').append(cards[i]).append(',')
                    .append(String.format(Locale.ROOT, "%d.%02d", cents[i] / 100, cents[i] % 100)).append(',')
                    .append(i % 3 == 0 ? "" : i % 3 == 1 ? "true" : "false").append('\n');
        }
        Path events = Files.writeString(dir.resolve("payments.csv"), csv);
        Path replies = dir.resolve("replies.ndjson");
        assertThat(run("send", "payments", events.toString(), "--output", replies.toString(), "--batch-size", "64"))
                .as(err.toString()).isZero();
        assertThat(err.toString()).startsWith("railgun send: sent 1,000 events in ")
                .contains(": 999 counted, 1 duplicate, 0 dropped late").hasLineCount(1);

        List<String> lines = Files.readAllLines(replies);
        assertThat(lines).hasSize(EVENTS);
        Map<String, Long> sumCents = new HashMap<>();
        Map<String, Long> counts = new HashMap<>();
        for (int i = 0; i < EVENTS; i++) {
            JsonNode reply = JSON.readTree(lines.get(i));
            assertThat(reply.path("eventId").asText()).isEqualTo(ids[i]);
            if (i == 500) {
                assertThat(reply.path("duplicate").asBoolean()).as("line %d", i + 2).isTrue();
            } else {
                sumCents.merge(cards[i], cents[i], Long::sum);
                counts.merge(cards[i], 1L, Long::sum);
                assertThat(reply.has("duplicate")).as("line %d", i + 2).isFalse();
            }
            assertThat(reply.path("metrics").path("card_count").asLong()).as("line %d", i + 2)
                    .isEqualTo(counts.get(cards[i]));
            assertThat(reply.path("metrics").path("card_sum").asDouble()).as("line %d", i + 2)
                    .isCloseTo(sumCents.get(cards[i]) / 100.0, within(1e-6));
        }

        // the same file again, three batches in flight: every event a duplicate, replies in input order
        assertThat(run("send", "payments", events.toString(), "--batch-size", "100", "--concurrency", "3"))
                .as(err.toString()).isZero();
        assertThat(err.toString()).contains(": 0 counted, 1,000 duplicates, 0 dropped late");
        List<String> again = out.toString().lines().toList();
        assertThat(again).hasSize(EVENTS);
        for (int i = 0; i < EVENTS; i++) {
            JsonNode reply = JSON.readTree(again.get(i));
            assertThat(reply.path("eventId").asText()).isEqualTo(ids[i]);
            assertThat(reply.path("metrics").path("card_count").asLong()).isEqualTo(counts.get(cards[i]));
        }

        for (String card : List.of(cards[0], cards[EVENTS - 1])) {
            assertThat(run("read", "payments", "card_sum", "card=" + card)).as(err.toString()).isZero();
            assertThat(Double.parseDouble(out.toString().strip())).isCloseTo(sumCents.get(card) / 100.0, within(1e-6));
            assertThat(run("read", "payments", "card_count", "card=" + card, "--json")).isZero();
            JsonNode read = JSON.readTree(out.toString());
            assertThat(read.path("value").asLong()).isEqualTo(counts.get(card));
            assertThat(read.path("key").path("card").asText()).isEqualTo(card);
        }

        assertThat(run("streams", "show", "payments")).isZero();
        assertThat(out.toString()).contains("partitioners: card (3 partitions each)").contains("card_sum ");
        assertThat(run("streams", "delete", "payments")).isZero();
        assertThat(run("streams", "show", "payments")).isEqualTo(1);
        assertThat(err.toString()).contains("unknown_stream (HTTP 404)");
    }
}
