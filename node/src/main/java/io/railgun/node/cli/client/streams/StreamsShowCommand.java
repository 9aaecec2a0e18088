package io.railgun.node.cli.client.streams;

import io.railgun.client.MetricInfo;
import io.railgun.client.RailgunClient;
import io.railgun.client.StreamSpec;
import io.railgun.node.cli.client.ClientCommand;
import io.railgun.node.cli.client.ClientContext;
import io.railgun.node.cli.client.ExitCode;
import io.railgun.node.cli.client.Json;
import io.railgun.node.cli.client.NodeTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.List;
import java.util.stream.Collectors;

/** {@code railgun streams show NAME}: one stream's definition and its metrics. */
@Command(name = "show", header = "Show a stream's definition and its metrics.")
public final class StreamsShowCommand extends ClientCommand {
    @Parameters(index = "0", paramLabel = "STREAM", description = "The stream's name.")
    String stream;

    @Option(names = "--json", description = "Print the definition (GET /v1/streams/STREAM) as one line of JSON:"
            + " a body that 'streams create' accepts again.")
    boolean json;

    public StreamsShowCommand(ClientContext context) {
        super(context);
    }

    @Override
    protected int run(RailgunClient client, NodeTarget target) {
        StreamSpec spec = client.stream(stream);
        if (json) {
            out().println(Json.line(StreamJson.of(stream, spec)));
            return ExitCode.OK;
        }
        List<MetricInfo> metrics = client.metrics(stream);
        PrintWriter out = out();
        out.println("stream " + stream);
        out.println("  fields:       " + spec.fields().entrySet().stream()
                .map(f -> f.getKey() + " " + f.getValue().jsonName()).collect(Collectors.joining(", ")));
        out.println("  event id:     " + spec.eventId());
        out.println("  timestamp:    " + (spec.timestamp() == null ? "none (the node's clock on arrival)"
                : spec.timestamp()));
        out.println("  partitioners: " + String.join(", ", spec.partitioners()) + " (" + spec.partitions()
                + (spec.partitions() == 1 ? " partition" : " partitions") + " each)");
        out.println("  lateness:     " + lateness(spec));
        out.println("  retention:    " + spec.retention());
        if (spec.inputRetention() != null) {
            out.println("  input kept:   " + spec.inputRetention() + " (retention of its Kafka input topics)");
        }
        if (metrics.isEmpty()) {
            out.println("  metrics:      none (add one with: railgun metrics add " + stream + " \"SELECT ...\")");
        } else {
            out.println("  metrics:");
            int width = metrics.stream().mapToInt(m -> m.name().length()).max().orElse(0);
            for (MetricInfo m : metrics) {
                out.println("    " + String.format("%-" + width + "s", m.name()) + "  " + m.statement());
            }
        }
        return ExitCode.OK;
    }

    /** {@code 5s, late events dropped}. */
    static String lateness(StreamSpec spec) {
        String policy = spec.lateEvents() == null ? "drop" : spec.lateEvents().jsonName();
        return spec.lateness() + " (" + policy + ")";
    }
}
