package io.railgun.node.cli.client.metrics;

import io.railgun.client.MetricInfo;
import io.railgun.client.RailgunClient;
import io.railgun.node.cli.client.ClientCommand;
import io.railgun.node.cli.client.ClientContext;
import io.railgun.node.cli.client.ExitCode;
import io.railgun.node.cli.client.Json;
import io.railgun.node.cli.client.NodeTarget;
import io.railgun.node.cli.client.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code railgun metrics list STREAM}: {@code GET /v1/streams/STREAM/metrics}, in creation order. */
@Command(name = "list", header = "List a stream's metrics: name, GROUP BY fields (the keys of a read), statement.")
public final class MetricsListCommand extends ClientCommand {
    @Parameters(index = "0", paramLabel = "STREAM", description = "The stream's name.")
    String stream;

    @Option(names = "--json", description = "Print {\"metrics\": [{name, statement, partitioner, groupBy}, ...]}"
            + " as one line of JSON.")
    boolean json;

    public MetricsListCommand(ClientContext context) {
        super(context);
    }

    @Override
    protected int run(RailgunClient client, NodeTarget target) {
        List<MetricInfo> metrics = client.metrics(stream);
        if (json) {
            List<Map<String, Object>> list = metrics.stream().map(m -> {
                Map<String, Object> item = new LinkedHashMap<>();
                item.put("name", m.name());
                item.put("statement", m.statement());
                item.put("partitioner", m.partitioner());
                item.put("groupBy", m.groupBy());
                return item;
            }).toList();
            out().println(Json.line(Map.of("metrics", list)));
            return ExitCode.OK;
        }
        if (metrics.isEmpty()) {
            out().println("Stream " + stream + " has no metrics. Add some with: railgun metrics add " + stream
                    + " \"SELECT ... FROM " + stream + " GROUP BY ...\"");
            return ExitCode.OK;
        }
        var table = new Table("NAME", "GROUP BY", "STATEMENT");
        metrics.forEach(m -> table.row(m.name(), String.join(",", m.groupBy()), m.statement()));
        table.print(out());
        return ExitCode.OK;
    }
}
