package io.railgun.node.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.railgun.node.cli.client.ClientContext;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code railgun cluster} against a {@link FakeNode}: the tables people read, the JSON scripts read. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String url, String... args) {
        var context = new ClientContext(Map.of("RAILGUN_URL", url), () -> new ByteArrayInputStream(new byte[0]),
                () -> false, () -> false);
        var cl = Main.commandLine(Map.of(), config -> {
            throw new IllegalStateException("no node here");
        }, (dataDir, port, overrides) -> {
            throw new IllegalStateException("no broker here");
        }, context);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void printsNodesAndTasksWithTheirCopies() throws Exception {
        try (FakeNode node = new FakeNode()) {
            assertThat(run(node.url(), "cluster")).as(err.toString()).isZero();
        }
        String text = out.toString();
        assertThat(text).containsPattern("n1 +up +http://127.0.0.1:7070 +2 +2 +0.4 s ago +60 min ago")
                .containsPattern("n2 +unreachable +http://127.0.0.1:7071 +1 +2 +20 s ago +30 min ago");
        String[] lines = text.lines().toArray(String[]::new);
        String card0 = text.lines().filter(l -> l.startsWith("payments/card-0")).findFirst().orElseThrow();
        assertThat(card0).contains("n1", "current", "n2 (unreachable) (lag 7, checkpoint 4.2 s)");
        assertThat(card0.split("\\s{2,}")[2]).isEqualTo("3"); // the lag column
        String card1 = text.lines().filter(l -> l.startsWith("payments/card-1")).findFirst().orElseThrow();
        assertThat(card1).contains("none", "n1 (recovering 25% (1.0 MiB of 4.0 MiB))", "n2 (unreachable)");
        assertThat(lines[0]).startsWith("NODE");
    }

    @Test
    void printsTheNodesJsonOnOneLine() throws Exception {
        try (FakeNode node = new FakeNode()) {
            assertThat(run(node.url(), "cluster", "--json")).isZero();
        }
        assertThat(out.toString().lines().count()).isEqualTo(1);
        var mapper = new ObjectMapper();
        assertThat(mapper.readTree(out.toString())).isEqualTo(mapper.readTree(FakeNode.CLUSTER));
    }

    @Test
    void noNodeIsExitCode3() {
        assertThat(run("http://127.0.0.1:1", "cluster")).isEqualTo(3);
        assertThat(err.toString()).contains("railgun cluster: cannot reach the node");
    }
}
