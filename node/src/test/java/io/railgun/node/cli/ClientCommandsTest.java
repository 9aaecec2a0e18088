package io.railgun.node.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.node.SelfSignedKeystore;
import io.railgun.node.cli.client.ClientContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client commands' exit codes and messages, against a {@link FakeNode} (no Kafka): a script can
 * tell "done" (0), "the node said no" (1), "bad command line or input" (2), "no node" (3) and "sent
 * part of it" (4), and stderr says which line to fix.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClientCommandsTest {
    private static final String HEADER = "id,ts,card,amount\n";

    @TempDir
    Path dir;

    private FakeNode node;
    private StringWriter out;
    private StringWriter err;
    private String stdin = "";

    @BeforeEach
    void startFakeNode() throws IOException {
        node = new FakeNode();
    }

    @AfterEach
    void stopFakeNode() {
        node.close();
    }

    private int run(String... args) {
        return run(Map.of("RAILGUN_URL", node.url()), args);
    }

    private int run(Map<String, String> env, String... args) {
        out = new StringWriter();
        err = new StringWriter();
        var context = new ClientContext(env,
                () -> new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), () -> false, () -> false);
        var cl = Main.commandLine(Map.of(), config -> {
            throw new IllegalStateException("no node here");
        }, (dataDir, port, overrides) -> {
            throw new IllegalStateException("no broker here");
        }, context);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    private Path csv(int rows) throws IOException {
        var text = new StringBuilder(HEADER);
        for (int i = 0; i < rows; i++) {
            text.append("e").append(i).append(',').append(1_700_000_000_000L + i).append(",c").append(i % 3).append(",1.5\n");
        }
        return Files.writeString(dir.resolve("events.csv"), text);
    }

    @Test
    void sendWritesOneReplyPerEventInOrderAndASummary() throws IOException {
        assertThat(run("send", "payments", csv(5).toString(), "--batch-size", "2")).isZero();
        assertThat(out.toString().lines().toList()).containsExactly(
                "{\"eventId\":\"e0\",\"metrics\":{\"n\":1}}", "{\"eventId\":\"e1\",\"metrics\":{\"n\":2}}",
                "{\"eventId\":\"e2\",\"metrics\":{\"n\":3}}", "{\"eventId\":\"e3\",\"metrics\":{\"n\":4}}",
                "{\"eventId\":\"e4\",\"metrics\":{\"n\":5}}");
        assertThat(node.batchSizes()).containsExactly(2, 2, 1);
        assertThat(err.toString()).startsWith("railgun send: sent 5 events in ")
                .contains(": 5 counted, 0 duplicates, 0 dropped late").hasLineCount(1);
    }

    @Test
    void sendReadsNdjsonFromStandardInputAndWritesTheRepliesToAFile() {
        stdin = "{\"id\": \"a\", \"card\": \"c1\"}\n\n{\"id\": \"b\", \"card\": \"c1\"}\n";
        Path replies = dir.resolve("replies.ndjson");
        assertThat(run("send", "payments", "--output", replies.toString())).isZero();
        assertThat(out.toString()).isEmpty();
        assertThat(replies).content().hasLineCount(2).contains("\"eventId\":\"b\"");
    }

    @Test
    void aBatchAnswered503IsSentAgainAndItsDuplicatesCountAsCounted() throws IOException {
        // the node counted the batch but could not answer in time: the same events again answer duplicate
        node.then(FakeNode.Answer.error(503, "timeout", "no reply in time", "1"));
        node.then(FakeNode.Answer.allDuplicates());
        assertThat(run("send", "payments", csv(3).toString())).isZero();
        assertThat(node.batchSizes()).containsExactly(3, 3);
        assertThat(out.toString().lines()).hasSize(3);
        assertThat(err.toString()).contains(": 3 counted, 0 duplicates, 0 dropped late; 1 batch sent again after a"
                + " 503 or timeout");
    }

    @Test
    void aRefusedBatchNamesTheLineOfTheOffendingRowAndSaysWhatWasSent() throws IOException {
        node.then(new FakeNode.Answer(200, null, null, false));
        node.then(FakeNode.Answer.error(400, "invalid_value",
                "events[1].amount: expected a number for double field 'amount', got a string", null));
        assertThat(run("send", "payments", csv(5).toString(), "--batch-size", "2")).isEqualTo(4);
        List<String> lines = err.toString().lines().toList();
        assertThat(lines.get(0)).isEqualTo("railgun send: line 5 of " + dir.resolve("events.csv") + ": invalid_value"
                + " (HTTP 400): amount: expected a number for double field 'amount', got a string");
        assertThat(lines.get(1)).startsWith("railgun send: stopped after 2 events in ").contains("send it again");
        assertThat(out.toString().lines()).hasSize(2);
    }

    @Test
    void aRefusedFirstBatchIsTheNodesErrorWithNothingSent() throws IOException {
        node.then(FakeNode.Answer.error(413, "batch_too_large", "a batch holds at most 2 events", null));
        assertThat(run("send", "payments", csv(3).toString())).isEqualTo(1);
        assertThat(err.toString()).contains("the batch of lines 2-4 of").contains("batch_too_large (HTTP 413)")
                .contains("--batch-size").contains("nothing was sent");
    }

    @Test
    void aBadRowStopsAfterSendingTheRowsBeforeIt() throws IOException {
        Path file = Files.writeString(dir.resolve("bad.csv"), HEADER + "e1,1700000000000,c1,2.5\ne2,1700000000001,c1,"
                + "lots\ne3,1700000000002,c1,1\n");
        assertThat(run("send", "payments", file.toString())).isEqualTo(4);
        assertThat(err.toString()).startsWith("railgun send: line 3 of " + file + ": field 'amount': expected a number")
                .contains("stopped after 1 event in");
        assertThat(node.batchSizes()).containsExactly(1);

        Path header = Files.writeString(dir.resolve("header.csv"), "id,amont\n");
        assertThat(run("send", "payments", header.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("railgun send: line 1 of " + header + ": header column 'amont' is not a"
                + " field of the stream (did you mean 'amount'?); its fields: id, ts, card, amount\n");
    }

    @Test
    void anUnwritableOutputOrAnInputThatIsNotUtf8IsAUsageError() throws IOException {
        Path output = dir.resolve("no-such-dir").resolve("replies.ndjson");
        assertThat(run("send", "payments", csv(2).toString(), "--output", output.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("railgun send: cannot write the replies to " + output
                + ": no such file or directory\n");
        Path latin1 = Files.write(dir.resolve("latin1.csv"), (HEADER + "\u00e9t\u00e9,1,c1,2\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        assertThat(run("send", "payments", latin1.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("railgun send: cannot read " + latin1 + ": not UTF-8 text\n");
    }

    @Test
    void theNodesErrorIsExitCode1WithItsCodeAndMessage() {
        assertThat(run("streams", "show", "nope")).isEqualTo(1);
        assertThat(err.toString()).isEqualTo("railgun streams show: unknown_stream (HTTP 404): no stream at"
                + " /v1/streams/nope\n");
        assertThat(run("streams", "delete", "nope", "--if-exists")).isZero();
    }

    @Test
    void noNodeIsExitCode3WithWhereItLookedAndHowToPointElsewhere() throws IOException {
        int port;
        try (var socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = socket.getLocalPort();
        }
        assertThat(run("streams", "list", "--port", Integer.toString(port))).isEqualTo(3);
        assertThat(err.toString()).isEqualTo("railgun streams list: cannot reach the node at http://127.0.0.1:" + port
                + " (from --port): connection refused; start one with './railgun start', or give its address with"
                + " --url URL or --port PORT (RAILGUN_URL, RAILGUN_PORT)\n");
    }

    @Test
    void theNodesKeystoreGivesHttpsTrustingItsSelfSignedCertificate() throws Exception {
        Path keystore = dir.resolve("node.p12");
        SelfSignedKeystore.create(keystore, "changeit");
        try (var https = new FakeNode(keystore, "changeit")) {
            Map<String, String> env = Map.of("RAILGUN_TLS_KEYSTORE", keystore.toString(),
                    "RAILGUN_TLS_KEYSTORE_PASSWORD", "changeit", "RAILGUN_PORT", Integer.toString(https.port()));
            assertThat(run(env, "streams", "list")).as(err.toString()).isZero();
            assertThat(out.toString()).contains("payments");
            // without the keystore the certificate is not trusted: no connection
            assertThat(run(Map.of(), "streams", "list", "--url", https.url())).isEqualTo(3);
            assertThat(err.toString()).contains("TLS failed").contains("--tls-keystore");
        }
    }

    @Test
    void aBadCommandLineIsExitCode2() {
        assertThat(run("read", "payments")).isEqualTo(2);
        assertThat(err.toString()).contains("Missing required parameter: 'METRIC'");
        assertThat(run("streams")).isEqualTo(2);
        assertThat(err.toString()).startsWith("railgun streams: missing command: list, show, create, delete");
        assertThat(run("read", "payments", "n", "card")).isEqualTo(2);
        assertThat(err.toString()).contains("'card' is not FIELD=VALUE");
        assertThat(run("send", "payments", "--format", "xml")).isEqualTo(2);
        assertThat(run("send", "payments", dir.resolve("missing.csv").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("missing.csv does not exist");
    }

    @Test
    void listsTheStreamsAsATableOrJson() {
        assertThat(run("streams", "list")).isZero();
        assertThat(out.toString()).startsWith("NAME      FIELDS  EVENT ID  TIMESTAMP  PARTITIONERS  PARTITIONS  LATENESS"
                + "   RETENTION\npayments  4       id        ts         card          1           0s (drop)  0s\n");
        assertThat(run("streams", "list", "--json")).isZero();
        assertThat(out.toString()).isEqualTo("{\"streams\":[" + FakeNode.STREAM + "]}\n");
    }

    @Test
    void theProgressBarCanBeForcedOnAndEndsErased() throws IOException {
        assertThat(run("send", "payments", csv(3).toString(), "--progress", "--output", dir.resolve("r").toString()))
                .isZero();
        assertThat(err.toString()).contains("\r[").contains("/3 ").contains("\rrailgun send: sent 3 events");
    }

    @Test
    void everyClientCommandsHelpGivesTheExitCodesAndTheNodeOptions() {
        for (List<String> command : List.of(List.of("streams", "list"), List.of("streams", "show"),
                List.of("streams", "create"), List.of("streams", "delete"), List.of("metrics", "add"),
                List.of("metrics", "list"), List.of("metrics", "remove"), List.of("send"), List.of("read"))) {
            var args = new java.util.ArrayList<>(command);
            args.add("--help");
            assertThat(run(args.toArray(String[]::new))).as(command.toString()).isZero();
            assertThat(out.toString().replaceAll("\\s+", " ")).as(command.toString())
                    .contains("Exit codes: 0 done; 1 the node answered with an error").contains("--url=URL")
                    .contains("RAILGUN_ADMIN_TOKEN").contains("--port=PORT");
        }
    }
}
