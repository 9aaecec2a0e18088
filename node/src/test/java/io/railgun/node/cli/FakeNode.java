package io.railgun.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A stand-in for a node's HTTP API, for the client commands' failure paths: it knows one stream,
 * {@code payments}, answers each batch with one reply per event (metric {@code n} counting the
 * events), or with the next scripted answer when there is one. Thread-safe.
 */
final class FakeNode implements AutoCloseable {
    static final String STREAM = "{\"name\":\"payments\",\"fields\":{\"id\":\"string\",\"ts\":\"timestamp\",\"card\":"
            + "\"string\",\"amount\":\"double\"},\"eventId\":\"id\",\"timestamp\":\"ts\",\"partitioners\":[\"card\"],"
            + "\"partitions\":1,\"lateness\":\"0s\",\"lateEvents\":\"drop\",\"retention\":\"0s\"}";

    /** The answer to {@code GET /v1/cluster}: two nodes, one unreachable; a replica, a recovery, a task without active. */
    static final String CLUSTER = """
            {"generatedAt":"2026-01-01T10:00:00Z",
             "nodes":[{"id":"n1","url":"http://127.0.0.1:7070","startedAt":"2026-01-01T09:00:00Z",
                       "lastSeenAt":"2026-01-01T09:59:59.600Z","reachable":true,"units":2,"copies":2},
                      {"id":"n2","url":"http://127.0.0.1:7071","startedAt":"2026-01-01T09:30:00Z",
                       "lastSeenAt":"2026-01-01T09:59:40Z","reachable":false,"units":1,"copies":2}],
             "tasks":[{"task":"payments/card-0","stream":"payments","partitioner":"card","partition":0,
                       "active":{"node":"n1","reachable":true,"lag":3,"checkpointOffset":120,"checkpointAgeMs":0,
                                 "recovery":null},
                       "replicas":[{"node":"n2","reachable":false,"lag":7,"checkpointOffset":100,"checkpointAgeMs":4200,
                                    "recovery":null}],
                       "stale":[]},
                      {"task":"payments/card-1","stream":"payments","partitioner":"card","partition":1,
                       "active":null,
                       "replicas":[{"node":"n1","reachable":true,"lag":null,"checkpointOffset":null,
                                    "checkpointAgeMs":null,"recovery":{"bytesDone":1048576,"bytesTotal":4194304}}],
                       "stale":[{"node":"n2","reachable":false,"lag":null,"checkpointOffset":90,"checkpointAgeMs":61000,
                                 "recovery":null}]}]}""";

    /** A scripted answer to a batch; {@code duplicates}: reply to every event with "duplicate": true. */
    record Answer(int status, String body, String retryAfter, boolean duplicates) {
        static Answer error(int status, String code, String message, String retryAfter) {
            return new Answer(status, "{\"error\":{\"code\":\"" + code + "\",\"message\":\"" + message + "\"}}",
                    retryAfter, false);
        }

        static Answer allDuplicates() {
            return new Answer(200, null, null, true);
        }
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final HttpServer server;
    private final Deque<Answer> script = new ArrayDeque<>();
    private final List<Integer> batchSizes = new ArrayList<>();
    private final AtomicLong counted = new AtomicLong();

    FakeNode() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    /** Over HTTPS with the certificate of a PKCS12 keystore. */
    FakeNode(Path keystore, String password) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            store.load(in, password.toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, password.toCharArray());
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(keys.getKeyManagers(), null, null);
        HttpsServer https = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        https.setHttpsConfigurator(new HttpsConfigurator(tls));
        server = https;
        server.createContext("/", this::handle);
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    String url() {
        return (server instanceof HttpsServer ? "https" : "http") + "://127.0.0.1:" + port();
    }

    synchronized void then(Answer answer) {
        script.add(answer);
    }

    synchronized List<Integer> batchSizes() {
        return List.copyOf(batchSizes);
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String method = exchange.getRequestMethod();
        byte[] request = exchange.getRequestBody().readAllBytes();
        if (method.equals("GET") && path.equals("/v1/streams/payments")) {
            send(exchange, 200, STREAM, null);
        } else if (method.equals("GET") && path.equals("/v1/cluster")) {
            send(exchange, 200, CLUSTER, null);
        } else if (method.equals("GET") && path.equals("/v1/streams")) {
            send(exchange, 200, "{\"streams\":[" + STREAM + "]}", null);
        } else if (method.equals("POST") && path.equals("/v1/streams/payments/events:batch")) {
            JsonNode events = MAPPER.readTree(request);
            Answer answer;
            synchronized (this) {
                batchSizes.add(events.size());
                answer = script.poll();
            }
            if (answer != null && answer.status() != 200) {
                send(exchange, answer.status(), answer.body(), answer.retryAfter());
                return;
            }
            ArrayNode replies = MAPPER.createArrayNode();
            for (JsonNode event : events) {
                ObjectNode reply = replies.addObject();
                reply.set("eventId", event.get("id"));
                boolean duplicate = answer != null && answer.duplicates();
                reply.putObject("metrics").put("n", duplicate ? counted.get() : counted.incrementAndGet());
                if (duplicate) {
                    reply.put("duplicate", true);
                }
            }
            send(exchange, 200, MAPPER.writeValueAsString(replies), null);
        } else {
            send(exchange, 404, "{\"error\":{\"code\":\"unknown_stream\",\"message\":\"no stream at " + path + "\"}}",
                    null);
        }
    }

    private static void send(HttpExchange exchange, int status, String body, String retryAfter) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        if (retryAfter != null) {
            exchange.getResponseHeaders().set("Retry-After", retryAfter);
        }
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
