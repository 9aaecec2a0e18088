package io.railgun.node.http;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import io.railgun.node.frontend.ApiException;
import io.railgun.node.frontend.MetricInfo;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;

/**
 * The JSON of the metrics endpoints (SPEC §3.2): the body of {@code POST .../metrics},
 * {@code {"query": "SELECT ...", "backfill": true}} ({@code backfill} optional, default false), and
 * the answers {@code {"metrics": ["n", "total"]}} (POST) and
 * {@code {"metrics": [{"name", "statement", "partitioner", "groupBy"}]}} (GET). Stateless.
 */
final class MetricJson {
    static final String EXAMPLE = "{\"query\": \"SELECT COUNT(*) AS n FROM payments GROUP BY card [RANGE 5 MINUTES]\", "
            + "\"backfill\": true}";

    private MetricJson() {}

    /** A parsed POST body. */
    record AddStatement(String query, boolean backfill) {}

    /** @throws ApiException 400 {@code invalid_json}, {@code unknown_key} or {@code invalid_request} */
    static AddStatement parse(byte[] body, int length) {
        JsonNode root = Json.readTree(body, length, EXAMPLE);
        if (!root.isObject()) {
            throw invalid("the body must be a JSON object like " + EXAMPLE);
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!key.equals("query") && !key.equals("backfill")) {
                throw ApiException.badRequest("unknown_key", "unknown key \"" + key + "\"; the valid keys are query and "
                        + "backfill, as in " + EXAMPLE);
            }
        }
        JsonNode query = root.get("query");
        if (query == null || query.isNull()) {
            throw invalid("\"query\" is missing; send the statement, like " + EXAMPLE);
        }
        if (!query.isTextual() || query.asText().isBlank()) {
            throw invalid("\"query\" must be a non-empty string holding the statement, like " + EXAMPLE);
        }
        JsonNode backfill = root.get("backfill");
        if (backfill != null && !backfill.isNull() && !backfill.isBoolean()) {
            throw invalid("\"backfill\" must be true or false, not " + backfill);
        }
        return new AddStatement(query.asText(), backfill != null && backfill.asBoolean());
    }

    static void writeNames(JsonGenerator g, List<String> names) throws IOException {
        g.writeStartObject();
        g.writeArrayFieldStart("metrics");
        for (String n : names) {
            g.writeString(n);
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    static void writeList(JsonGenerator g, List<MetricInfo> metrics) throws IOException {
        g.writeStartObject();
        g.writeArrayFieldStart("metrics");
        for (MetricInfo m : metrics) {
            g.writeStartObject();
            g.writeStringField("name", m.name());
            g.writeStringField("statement", m.statement());
            g.writeStringField("partitioner", m.partitioner());
            g.writeArrayFieldStart("groupBy");
            for (String f : m.groupBy()) {
                g.writeString(f);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static ApiException invalid(String message) {
        return ApiException.badRequest("invalid_request", message);
    }
}
