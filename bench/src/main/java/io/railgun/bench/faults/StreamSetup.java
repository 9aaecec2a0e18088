package io.railgun.bench.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Creates the suite's stream and metrics through the HTTP API and waits until every node knows them.
 * The stream: {@code id}, {@code ts}, {@code card}, {@code amount}, partitioned by card, with a
 * lateness of {@value #LATENESS_MS} ms (drop) so that slow retries exercise the late path; the
 * metrics: SUM and COUNT over a {@value #WINDOW_MS} ms sliding window (events leave it during the
 * run) and COUNT over an unbounded window (a count counted twice shows in every later reply).
 */
final class StreamSetup {
    static final String STREAM = "faults";
    static final long WINDOW_MS = 10_000;
    static final long LATENESS_MS = 5_000;
    /** The dedup horizon: max(the node's default --min-dedup-horizon of 1 h, lateness, window). */
    static final long HORIZON_MS = 3_600_000;
    static final String SUM = "s10";
    static final String COUNT = "n10";
    static final String COUNT_ALL = "n_all";

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** Creates the stream and its metrics on {@code node}; returns the row position of each field. */
    Map<String, Integer> create(URI node, int partitions) throws IOException, InterruptedException {
        String definition = """
                {"fields": {"id": "string", "ts": "timestamp", "card": "string", "amount": "double"},
                 "eventId": "id", "timestamp": "ts", "partitioners": ["card"], "partitions": %d,
                 "lateness": "%ds", "lateEvents": "drop"}""".formatted(partitions, LATENESS_MS / 1000);
        JsonNode created = JSON.readTree(call("PUT", node.resolve("/v1/streams/" + STREAM), definition, 201));
        Map<String, Integer> fieldIndex = new HashMap<>();
        Iterator<String> names = created.path("fields").fieldNames();
        for (int i = 0; names.hasNext(); i++) {
            fieldIndex.put(names.next(), i);
        }
        if (!fieldIndex.keySet().containsAll(List.of("id", "ts", "card", "amount"))) {
            throw new IllegalStateException("unexpected definition: " + created);
        }
        call("POST", node.resolve("/v1/streams/" + STREAM + "/metrics"), query("SUM(amount) AS " + SUM + ", COUNT(*) AS "
                + COUNT, "RANGE " + WINDOW_MS / 1000 + " SECONDS"), 201);
        call("POST", node.resolve("/v1/streams/" + STREAM + "/metrics"), query("COUNT(*) AS " + COUNT_ALL,
                "RANGE UNBOUNDED"), 201);
        return fieldIndex;
    }

    private static String query(String select, String window) {
        return "{\"query\": \"SELECT " + select + " FROM " + STREAM + " GROUP BY card [" + window + "]\"}";
    }

    /** Waits until the node lists all three metrics and is ready (its tasks opened). */
    void awaitKnown(URI node, int timeoutS) throws IOException, InterruptedException {
        HttpRequest list = HttpRequest.newBuilder(node.resolve("/v1/streams/" + STREAM + "/metrics"))
                .timeout(Duration.ofSeconds(5)).GET().build();
        HttpRequest ready = HttpRequest.newBuilder(node.resolve("/health/ready")).timeout(Duration.ofSeconds(5)).GET()
                .build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = http.send(list, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200 && r.body().contains("\"" + COUNT_ALL + "\"") && r.body().contains("\"" + SUM + "\"")
                    && http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException(node + " does not know stream " + STREAM + " and its metrics after " + timeoutS + " s");
    }

    private String call(String method, URI uri, String body, int expected) throws IOException, InterruptedException {
        HttpRequest r = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<String> response = http.send(r, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != expected) {
            throw new IllegalStateException(method + " " + uri + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }
}
