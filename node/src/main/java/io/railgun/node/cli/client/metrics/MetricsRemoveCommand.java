package io.railgun.node.cli.client.metrics;

import io.railgun.client.RailgunClient;
import io.railgun.node.cli.client.ClientCommand;
import io.railgun.node.cli.client.ClientContext;
import io.railgun.node.cli.client.ExitCode;
import io.railgun.node.cli.client.NodeTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code railgun metrics remove STREAM NAME}: {@code DELETE /v1/streams/STREAM/metrics/NAME}. */
@Command(name = "remove", header = "Remove one metric from a stream (the other metrics of its statement stay).")
public final class MetricsRemoveCommand extends ClientCommand {
    @Parameters(index = "0", paramLabel = "STREAM", description = "The stream's name.")
    String stream;

    @Parameters(index = "1", paramLabel = "METRIC", description = "The metric's name, as 'metrics list' shows it.")
    String metric;

    public MetricsRemoveCommand(ClientContext context) {
        super(context);
    }

    @Override
    protected int run(RailgunClient client, NodeTarget target) {
        client.deleteMetric(stream, metric);
        out().println("removed metric " + metric + " from stream " + stream);
        return ExitCode.OK;
    }
}
