package io.railgun.node.cli.client.read;

import io.railgun.client.PointRead;
import io.railgun.client.RailgunClient;
import io.railgun.node.cli.client.ClientCommand;
import io.railgun.node.cli.client.ClientContext;
import io.railgun.node.cli.client.CommandFailure;
import io.railgun.node.cli.client.ExitCode;
import io.railgun.node.cli.client.Json;
import io.railgun.node.cli.client.NodeTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code railgun read STREAM METRIC card=c1}: a point read, {@code GET
 * /v1/streams/STREAM/metrics/METRIC?card=c1}, printing the value alone ({@code null} for SQL NULL)
 * or, with {@code --json}, the node's whole answer.
 */
@Command(name = "read", header = "Read a metric's current value for one key, without sending an event.",
        description = {"Give one FIELD=VALUE per GROUP BY field of the metric ('railgun metrics list STREAM' shows"
                + " them). Prints the value alone (null for SQL NULL), e.g.:",
                "  railgun read payments card_sum_5m card=c1"})
public final class ReadCommand extends ClientCommand {
    @Parameters(index = "0", paramLabel = "STREAM", description = "The stream's name.")
    String stream;

    @Parameters(index = "1", paramLabel = "METRIC", description = "The metric's name.")
    String metric;

    @Parameters(index = "2..*", paramLabel = "FIELD=VALUE", description = "The key: a value per GROUP BY field.")
    List<String> key = List.of();

    @Option(names = "--json", description = "Print the node's answer, {\"metric\", \"key\", \"value\", \"streamTime\"},"
            + " as one line of JSON.")
    boolean json;

    public ReadCommand(ClientContext context) {
        super(context);
    }

    @Override
    protected int run(RailgunClient client, NodeTarget target) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String entry : key) {
            int eq = entry.indexOf('=');
            if (eq < 1) {
                throw CommandFailure.usage("'" + entry + "' is not FIELD=VALUE, e.g. card=c1");
            }
            if (fields.put(entry.substring(0, eq), entry.substring(eq + 1)) != null) {
                throw CommandFailure.usage("field " + entry.substring(0, eq) + " is given twice");
            }
        }
        PointRead read = client.read(stream, metric, fields);
        if (json) {
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("metric", read.metric());
            answer.put("key", read.key());
            answer.put("value", read.value());
            answer.put("streamTime", read.streamTime());
            out().println(Json.line(answer));
        } else {
            out().println(read.value());
        }
        return ExitCode.OK;
    }
}
