package io.railgun.node.cli.client.streams;

import io.railgun.client.RailgunClient;
import io.railgun.client.StreamSpec;
import io.railgun.node.cli.client.ClientCommand;
import io.railgun.node.cli.client.ClientContext;
import io.railgun.node.cli.client.ExitCode;
import io.railgun.node.cli.client.Json;
import io.railgun.node.cli.client.NodeTarget;
import io.railgun.node.cli.client.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.Map;

/** {@code railgun streams list}: {@code GET /v1/streams} as a table, or as the node's JSON. */
@Command(name = "list", header = "List the streams: name, fields, event id, partitioners, lateness, retention.")
public final class StreamsListCommand extends ClientCommand {
    @Option(names = "--json", description = "Print {\"streams\": [definition, ...]} as one line of JSON.")
    boolean json;

    public StreamsListCommand(ClientContext context) {
        super(context);
    }

    @Override
    protected int run(RailgunClient client, NodeTarget target) {
        Map<String, StreamSpec> streams = client.streams();
        if (json) {
            var root = Json.MAPPER.createObjectNode();
            var array = root.putArray("streams");
            streams.forEach((name, spec) -> array.add(StreamJson.of(name, spec)));
            out().println(Json.line(root));
            return ExitCode.OK;
        }
        if (streams.isEmpty()) {
            out().println("No streams. Create one with: railgun streams create NAME --file stream.yaml");
            return ExitCode.OK;
        }
        var table = new Table("NAME", "FIELDS", "EVENT ID", "TIMESTAMP", "PARTITIONERS", "PARTITIONS", "LATENESS",
                "RETENTION");
        streams.forEach((name, spec) -> table.row(name, Integer.toString(spec.fields().size()), spec.eventId(),
                spec.timestamp() == null ? "-" : spec.timestamp(), String.join(",", spec.partitioners()),
                Integer.toString(spec.partitions()), StreamsShowCommand.lateness(spec), String.valueOf(spec.retention())));
        table.print(out());
        return ExitCode.OK;
    }
}
