package io.railgun.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.railgun.engine.reply.StreamReply;
import io.railgun.node.NodeConfig;
import io.railgun.node.ops.NodeMetrics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Clients that try to take the node down, over raw sockets: more connections than the caps, idle,
 * slow heads and slow bodies, malformed request lines, URIs and headers, pipelined requests. The node
 * must refuse at once what is over a cap, close what is too slow (within generous bounds: no timing
 * is asserted beyond "eventually"), answer every refusal in the SPEC §3 error format, and keep
 * answering well-behaved clients.
 */
@Timeout(120)
class HttpApiHostileClientTest {
    static final String PAYMENTS = """
            {"fields": {"id": "string", "card": "string", "amount": "double"}, "eventId": "id",
             "partitioners": ["card"]}""";

    HttpApi api;
    FakeBackend backend;
    final List<Socket> sockets = new ArrayList<>();

    @AfterEach
    void stop() {
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException e) {
                // already closed
            }
        }
        if (api != null) {
            api.close();
        }
    }

    private void start(int maxConnections, int maxPerAddress, long idleMs, long headerMs, long bodyMs) throws IOException {
        backend = new FakeBackend();
        NodeConfig config = NodeConfig.defaults().withHttp("127.0.0.1", 0).withLimits(64 * 1024, 100, 5_000)
                .withConnections(maxConnections, maxPerAddress, idleMs, headerMs, bodyMs);
        api = HttpApi.start(config, backend, new NodeMetrics());
    }

    /** A connection to the node from a local address of the loopback range (127.0.0.1 is the well-behaved one). */
    private Socket connect(String from) throws IOException {
        Socket s = new Socket();
        sockets.add(s);
        s.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
        s.connect(api.address(), 5_000);
        s.setSoTimeout(10_000);
        return s;
    }

    private static void send(Socket s, String text) throws IOException {
        s.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        s.getOutputStream().flush();
    }

    /** A response read off a socket. */
    record Raw(int status, Map<String, String> headers, String body) {
        JsonNode json() throws IOException {
            return TestHttp.JSON.readTree(body);
        }

        String errorCode() throws IOException {
            return json().path("error").path("code").asText();
        }

        void assertError(int expectedStatus, String code) throws IOException {
            assertThat(status).as(body).isEqualTo(expectedStatus);
            assertThat(headers.get("content-type")).isEqualTo("application/json; charset=utf-8");
            assertThat(errorCode()).as(body).isEqualTo(code);
            assertThat(json().path("error").path("message").asText()).isNotBlank();
        }
    }

    /** Reads one response (status line, headers, a Content-Length body); null when the connection closed first. */
    private static Raw read(InputStream in) throws IOException {
        String status = line(in);
        if (status == null) {
            return null;
        }
        Map<String, String> headers = new LinkedHashMap<>();
        String h;
        while ((h = line(in)) != null && !h.isEmpty()) {
            int colon = h.indexOf(':');
            headers.put(h.substring(0, colon).strip().toLowerCase(Locale.ROOT), h.substring(colon + 1).strip());
        }
        int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
        byte[] body = in.readNBytes(length);
        return new Raw(Integer.parseInt(status.split(" ")[1]), headers, new String(body, StandardCharsets.UTF_8));
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') {
                String s = b.toString(StandardCharsets.ISO_8859_1);
                return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
            }
            b.write(c);
        }
        return b.size() == 0 ? null : b.toString(StandardCharsets.ISO_8859_1);
    }

    /** True when the node closed the connection within {@code ms} (after any bytes it sent). */
    private static boolean closedWithin(Socket s, long ms) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        byte[] sink = new byte[4096];
        while (System.nanoTime() < deadline) {
            s.setSoTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            try {
                if (s.getInputStream().read(sink) < 0) {
                    return true;
                }
            } catch (SocketTimeoutException e) {
                return false;
            } catch (IOException e) {
                return true; // reset
            }
        }
        return false;
    }

    private TestHttp.Response health() {
        return new TestHttp(api.uri()).get("/health");
    }

    @Test
    void connectionsOverThePerAddressCapAreRefusedAtOnceAndOthersAreStillServed() throws Exception {
        start(50, 20, 60_000, 60_000, 60_000);
        List<Socket> hostile = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            Socket s = connect("127.0.0.2");
            send(s, "G"); // one byte of a request head, then nothing
            hostile.add(s);
        }
        Raw refused = null;
        int open = 0;
        for (Socket s : hostile) {
            s.setSoTimeout(200);
            try {
                Raw r = read(s.getInputStream());
                if (r != null && refused == null) {
                    refused = r;
                }
            } catch (SocketTimeoutException e) {
                open++;
            } catch (IOException e) {
                // reset: refused too
            }
        }
        assertThat(open).as("connections of 127.0.0.2 left open").isLessThanOrEqualTo(20);
        assertThat(refused).as("a refused connection's answer").isNotNull();
        refused.assertError(503, "too_many_connections");
        assertThat(refused.headers()).containsEntry("retry-after", "1").containsEntry("connection", "close");
        // a well-behaved client from another address is still answered, again and again
        for (int i = 0; i < 20; i++) {
            assertThat(health().status()).isEqualTo(200);
        }
    }

    @Test
    void connectionsOverTheNodeCapAreRefusedUntilOthersClose() throws Exception {
        start(50, 20, 60_000, 60_000, 60_000);
        List<Socket> hostile = new ArrayList<>();
        for (String from : List.of("127.0.0.2", "127.0.0.3", "127.0.0.4")) {
            for (int i = 0; i < 20; i++) {
                Socket s = connect(from);
                send(s, "G");
                hostile.add(s);
            }
        }
        // the node is full: a new connection gets the 503 and is closed, without a request being read
        Socket late = connect("127.0.0.1");
        Raw r = read(late.getInputStream());
        assertThat(r).isNotNull();
        r.assertError(503, "too_many_connections");
        assertThat(closedWithin(late, 10_000)).isTrue();
        for (Socket s : hostile) {
            s.close();
        }
        // once they are gone, the node takes connections again
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        int status = 0;
        while (System.nanoTime() < deadline && status != 200) {
            Socket s = connect("127.0.0.1");
            send(s, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
            Raw ok = read(s.getInputStream());
            status = ok == null ? 0 : ok.status();
            if (status != 200) {
                Thread.sleep(50);
            }
        }
        assertThat(status).isEqualTo(200);
    }

    @Test
    void idleConnectionsAreClosed() throws Exception {
        start(100, 100, 300, 60_000, 60_000);
        Socket silent = connect("127.0.0.1");
        Socket served = connect("127.0.0.1");
        send(served, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
        assertThat(read(served.getInputStream()).status()).isEqualTo(200);
        assertThat(closedWithin(silent, 20_000)).as("a connection that never sent a byte").isTrue();
        assertThat(closedWithin(served, 20_000)).as("a kept-alive connection gone idle").isTrue();
        assertThat(health().status()).isEqualTo(200);
    }

    @Test
    void aSlowRequestHeadIsAnswered408AndClosed() throws Exception {
        start(100, 100, 60_000, 300, 60_000);
        Socket s = connect("127.0.0.1");
        send(s, "GET /hea");
        Raw r = read(s.getInputStream());
        assertThat(r).isNotNull();
        r.assertError(408, "request_timeout");
        assertThat(r.headers()).containsEntry("connection", "close");
        assertThat(closedWithin(s, 20_000)).isTrue();
        // a head sent at once is not affected
        assertThat(health().status()).isEqualTo(200);
    }

    @Test
    void aSlowRequestBodyIsAnswered408AndClosed() throws Exception {
        start(100, 100, 60_000, 60_000, 300);
        Socket s = connect("127.0.0.1");
        send(s, "POST /v1/streams/payments/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: 100\r\n\r\n{\"id\": \"half");
        Raw r = read(s.getInputStream());
        assertThat(r).isNotNull();
        r.assertError(408, "request_timeout");
        assertThat(closedWithin(s, 20_000)).isTrue();
        assertThat(backend.calls).isEmpty();
    }

    @Test
    void malformedRequestsAreAnsweredInTheErrorFormat() throws Exception {
        start(100, 100, 60_000, 60_000, 60_000);
        Map<String, String> requests = new LinkedHashMap<>();
        requests.put("GET /v1/streams/%zz HTTP/1.1\r\nHost: x\r\n\r\n", "400 invalid_uri");
        requests.put("GET /v1/streams/a%2 HTTP/1.1\r\nHost: x\r\n\r\n", "400 invalid_uri");
        requests.put("GET /v1/streams/a|b HTTP/1.1\r\nHost: x\r\n\r\n", "400 invalid_uri");
        requests.put("GET v1/streams HTTP/1.1\r\nHost: x\r\n\r\n", "400 invalid_uri");
        requests.put("HELLO\r\n\r\n", "400 bad_request");
        requests.put("GET /health HTTP/1.1\r\nno colon here\r\n\r\n", "400 bad_request");
        requests.put("GET /health HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", "400 bad_request");
        requests.put("GET /health HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", "400 bad_request");
        requests.put("GET /" + "a".repeat(HttpApi.MAX_REQUEST_LINE_BYTES + 10) + " HTTP/1.1\r\nHost: x\r\n\r\n",
                "414 uri_too_long");
        requests.put("GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + "b".repeat(HttpApi.MAX_HEADER_BYTES + 10)
                + "\r\n\r\n", "431 headers_too_large");
        requests.put("POST /v1/streams/x/events HTTP/1.1\r\nHost: x\r\nExpect: the-moon\r\nContent-Length: 2\r\n\r\n{}",
                "417 expectation_failed");
        for (Map.Entry<String, String> e : requests.entrySet()) {
            Socket s = connect("127.0.0.1");
            send(s, e.getKey());
            Raw r = read(s.getInputStream());
            String what = e.getKey().substring(0, Math.min(60, e.getKey().length()));
            assertThat(r).as(what).isNotNull();
            String[] expected = e.getValue().split(" ");
            assertThat(r.status()).as(what + ": " + r.body()).isEqualTo(Integer.parseInt(expected[0]));
            assertThat(r.errorCode()).as(what).isEqualTo(expected[1]);
            assertThat(r.headers().get("content-type")).isEqualTo("application/json; charset=utf-8");
        }
        assertThat(backend.calls).isEmpty();
        assertThat(health().status()).isEqualTo(200);
    }

    @Test
    void anInvalidUriKeepsTheConnectionUsable() throws Exception {
        start(100, 100, 60_000, 60_000, 60_000);
        Socket s = connect("127.0.0.1");
        send(s, "GET /v1/streams/%zz HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\n\r\n");
        read(s.getInputStream()).assertError(400, "invalid_uri");
        assertThat(read(s.getInputStream()).status()).isEqualTo(200);
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws Exception {
        start(100, 100, 60_000, 60_000, 60_000);
        assertThat(new TestHttp(api.uri()).call("PUT", "/v1/streams/payments", PAYMENTS).status()).isEqualTo(201);
        // the first event's reply comes late, the others' at once: the answers still come in request order
        Executor later = CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS);
        backend.onSend = row -> {
            StreamReply reply = new StreamReply(row.getString(0), false, false, Map.of());
            return row.getString(0).equals("e1") ? CompletableFuture.supplyAsync(() -> reply, later)
                    : CompletableFuture.completedFuture(reply);
        };
        StringBuilder pipelined = new StringBuilder();
        for (String id : List.of("e1", "e2", "e3")) {
            String body = "{\"id\": \"" + id + "\", \"card\": \"c\", \"amount\": 1}";
            pipelined.append("POST /v1/streams/payments/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: ").append(body.length()).append("\r\n\r\n").append(body);
            pipelined.append("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
        }
        pipelined.append("GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n");
        Socket s = connect("127.0.0.1");
        send(s, pipelined.toString());
        InputStream in = s.getInputStream();
        for (String id : List.of("e1", "e2", "e3")) {
            Raw event = read(in);
            assertThat(event.status()).as(event.body()).isEqualTo(200);
            assertThat(event.json().path("eventId").asText()).isEqualTo(id);
            Raw health = read(in);
            assertThat(health.status()).isEqualTo(200);
            assertThat(health.json().path("status").asText()).isEqualTo("ok");
        }
        read(in).assertError(404, "not_found");
    }

    @Test
    void expectContinueIsHonoured() throws Exception {
        start(100, 100, 60_000, 60_000, 60_000);
        Socket s = connect("127.0.0.1");
        String body = "{\"fields\": {\"id\": \"string\"}, \"eventId\": \"id\", \"partitioners\": [\"id\"]}";
        send(s, "PUT /v1/streams/s1 HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: " + body.length()
                + "\r\n\r\n");
        assertThat(line(s.getInputStream())).startsWith("HTTP/1.1 100");
        assertThat(line(s.getInputStream())).isEmpty();
        send(s, body);
        assertThat(read(s.getInputStream()).status()).isEqualTo(201);
        // too large: refused at once, without the body
        send(s, "PUT /v1/streams/s2 HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 100000000\r\n\r\n");
        Raw r = read(s.getInputStream());
        r.assertError(413, "body_too_large");
        assertThat(closedWithin(s, 20_000)).isTrue();
    }

    @Test
    void aClientThatHalfClosesAfterItsRequestGetsItsAnswer() throws Exception {
        start(100, 100, 60_000, 60_000, 60_000);
        Socket s = connect("127.0.0.1");
        send(s, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
        s.shutdownOutput();
        assertThat(read(s.getInputStream()).status()).isEqualTo(200);
        assertThat(closedWithin(s, 20_000)).isTrue();
    }

    @Test
    void stoppingLetsTheRequestInFlightFinish() throws Exception {
        start(100, 100, 60_000, 60_000, 60_000);
        assertThat(new TestHttp(api.uri()).call("PUT", "/v1/streams/payments", PAYMENTS).status()).isEqualTo(201);
        CompletableFuture<StreamReply> pending = new CompletableFuture<>();
        backend.onSend = row -> pending;
        Socket s = connect("127.0.0.1");
        String body = "{\"id\": \"d1\", \"card\": \"c\", \"amount\": 1}";
        send(s, "POST /v1/streams/payments/events HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length() + "\r\n\r\n"
                + body);
        Socket idle = connect("127.0.0.1");
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (backend.sentRows.isEmpty() && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        Thread closer = Thread.ofPlatform().start(api::close);
        Thread.sleep(200);
        pending.complete(new StreamReply("d1", false, false, Map.of()));
        Raw r = read(s.getInputStream());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.headers()).containsEntry("connection", "close");
        assertThat(closedWithin(idle, 20_000)).isTrue();
        closer.join(20_000);
        assertThat(closer.isAlive()).isFalse();
        api = null;
    }
}
