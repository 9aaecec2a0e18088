package io.railgun.node.cli.client.streams;

import io.railgun.client.RailgunClient;
import io.railgun.client.StreamPutResult;
import io.railgun.client.StreamSpec;
import io.railgun.node.cli.client.ClientCommand;
import io.railgun.node.cli.client.ClientContext;
import io.railgun.node.cli.client.ExitCode;
import io.railgun.node.cli.client.NodeTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;

/**
 * {@code railgun streams create NAME --file stream.yaml}: {@code PUT /v1/streams/NAME} with the
 * file's definition. Creating a stream that exists with the same definition, or with new fields
 * appended, succeeds (the node's 200); another change is the node's 409.
 */
@Command(name = "create", header = "Create a stream from a JSON or YAML definition (the body of PUT /v1/streams/NAME).",
        description = {"The file holds fields, eventId, timestamp, partitioners, partitions, lateness, lateEvents"
                + " and retention (docs/http-api.md), e.g. in YAML:",
                "  fields: {id: string, ts: timestamp, card: string, amount: double}",
                "  eventId: id",
                "  timestamp: ts",
                "  partitioners: [card]",
                "  partitions: 4",
                "  lateness: 5s",
                "Run again with the same file, or with new fields appended, it succeeds and changes nothing else."})
public final class StreamsCreateCommand extends ClientCommand {
    @Parameters(index = "0", paramLabel = "STREAM", description = "The stream's name.")
    String stream;

    @Option(names = {"-f", "--file"}, required = true, paramLabel = "FILE",
            description = "The definition: a .json file, a .yaml/.yml file, or - for standard input (YAML or JSON).")
    String file;

    public StreamsCreateCommand(ClientContext context) {
        super(context);
    }

    @Override
    protected int run(RailgunClient client, NodeTarget target) {
        StreamSpec spec = file.equals("-") ? StreamFile.read(null, context.stdin().get(), stream)
                : StreamFile.read(Path.of(file), null, stream);
        StreamPutResult result = client.createStream(stream, spec);
        out().println((result == StreamPutResult.CREATED ? "created stream " : "stream ") + stream
                + (result == StreamPutResult.CREATED ? "" : " exists: definition unchanged or new fields added")
                + " (" + spec.fields().size() + " fields, partitioned by " + String.join(", ", spec.partitioners())
                + ")");
        return ExitCode.OK;
    }
}
