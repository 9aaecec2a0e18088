package io.railgun.node.cli.client.streams;

import io.railgun.client.RailgunClient;
import io.railgun.client.RailgunException;
import io.railgun.node.cli.client.ClientCommand;
import io.railgun.node.cli.client.ClientContext;
import io.railgun.node.cli.client.ExitCode;
import io.railgun.node.cli.client.NodeTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code railgun streams delete NAME}: {@code DELETE /v1/streams/NAME}, with its metrics, topics and data. */
@Command(name = "delete", header = "Delete a stream with its metrics, Kafka topics and data.")
public final class StreamsDeleteCommand extends ClientCommand {
    @Parameters(index = "0", paramLabel = "STREAM", description = "The stream's name.")
    String stream;

    @Option(names = "--if-exists", description = "Succeed (exit code 0) when there is no such stream.")
    boolean ifExists;

    public StreamsDeleteCommand(ClientContext context) {
        super(context);
    }

    @Override
    protected int run(RailgunClient client, NodeTarget target) {
        try {
            client.deleteStream(stream);
        } catch (RailgunException e) {
            if (ifExists && e.status() == 404) {
                out().println("no stream " + stream + ": nothing to delete");
                return ExitCode.OK;
            }
            throw e;
        }
        out().println("deleted stream " + stream + " (its metrics, topics and data)");
        return ExitCode.OK;
    }
}
