package io.railgun.node.cli.client.metrics;

import io.railgun.client.RailgunClient;
import io.railgun.node.cli.client.ClientCommand;
import io.railgun.node.cli.client.ClientContext;
import io.railgun.node.cli.client.ExitCode;
import io.railgun.node.cli.client.Json;
import io.railgun.node.cli.client.NodeTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.Map;

/** {@code railgun metrics add STREAM "SELECT ..."}: {@code POST /v1/streams/STREAM/metrics}. */
@Command(name = "add", header = "Add the metrics of a statement to a stream.",
        description = {"Every event sent after it returns is counted. The statement language:"
                + " docs/query-language.md. Example:",
                "  railgun metrics add payments \"SELECT SUM(amount) AS card_sum_5m, COUNT(*) AS card_count_5m"
                        + " FROM payments GROUP BY card [RANGE 5 MINUTES]\""})
public final class MetricsAddCommand extends ClientCommand {
    @Parameters(index = "0", paramLabel = "STREAM", description = "The stream's name.")
    String stream;

    @Parameters(index = "1", paramLabel = "STATEMENT", description = "SELECT ... FROM STREAM GROUP BY ... [RANGE ...],"
            + " quoted as one argument.")
    String statement;

    @Option(names = "--backfill", description = "First compute the new metrics from the events the stream still"
            + " stores (until then reads of them answer 409 backfilling).")
    boolean backfill;

    @Option(names = "--json", description = "Print {\"metrics\": [name, ...]} as one line of JSON.")
    boolean json;

    public MetricsAddCommand(ClientContext context) {
        super(context);
    }

    @Override
    protected int run(RailgunClient client, NodeTarget target) {
        List<String> names = backfill ? client.addMetrics(stream, statement, true) : client.addMetrics(stream, statement);
        if (json) {
            out().println(Json.line(Map.of("metrics", names)));
        } else {
            out().println("added " + (names.size() == 1 ? "metric " : "metrics ") + String.join(", ", names)
                    + " to stream " + stream + (backfill ? " (backfilling from the stored events)" : ""));
        }
        return ExitCode.OK;
    }
}
