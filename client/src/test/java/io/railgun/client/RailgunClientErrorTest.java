package io.railgun.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** How failures become {@link RailgunException}s: the error object of SPEC §3, odd bodies, no node. */
class RailgunClientErrorTest {
    private StubNode node;
    private RailgunClient client;

    @BeforeEach
    void start() throws IOException {
        node = new StubNode();
        client = RailgunClient.builder().baseUri(node.baseUri()).build();
    }

    @AfterEach
    void stop() {
        client.close();
        node.close();
    }

    @Test
    void aClientMistakeCarriesTheNodesCodeAndMessage() {
        node.reply(400, "{\"error\": {\"code\": \"invalid_query\", \"message\": \"line 1, column 40: expected a field"
                + " after GROUP BY\"}}");

        RailgunException e = catchThrowableOfType(RailgunException.class, () -> client.addMetrics("s", "SELECT ..."));

        assertThat(e.status()).isEqualTo(400);
        assertThat(e.code()).isEqualTo("invalid_query");
        assertThat(e.getMessage()).isEqualTo("line 1, column 40: expected a field after GROUP BY");
        assertThat(e.retryAfterSeconds()).isZero();
        assertThat(e.isRetriable()).isFalse();
    }

    @Test
    void anIncompatibleStreamChangeIs409() {
        node.reply(409, "{\"error\": {\"code\": \"incompatible_schema\", \"message\": \"field amount changed type\"}}");

        assertThatThrownBy(() -> client.createStream("s", RailgunClientRequestTest.payments()))
                .isInstanceOfSatisfying(RailgunException.class, e -> {
                    assertThat(e.status()).isEqualTo(409);
                    assertThat(e.code()).isEqualTo("incompatible_schema");
                });
    }

    @Test
    void unavailableCarriesRetryAfter() {
        node.reply(503, "{\"error\": {\"code\": \"timeout\", \"message\": \"no reply from the tasks within 10 s\"}}",
                Map.of("Retry-After", "2"));

        RailgunException e = catchThrowableOfType(RailgunException.class, () -> client.send("s", Map.of("id", "e1")));

        assertThat(e.status()).isEqualTo(503);
        assertThat(e.code()).isEqualTo("timeout");
        assertThat(e.retryAfterSeconds()).isEqualTo(2);
        assertThat(e.isRetriable()).isTrue();
    }

    @Test
    void anUnparseableRetryAfterIsZero() {
        node.reply(503, "", Map.of("Retry-After", "Wed, 21 Oct 2026 07:28:00 GMT"));

        RailgunException e = catchThrowableOfType(RailgunException.class, () -> client.streams());

        assertThat(e.retryAfterSeconds()).isZero();
        assertThat(e.code()).isEqualTo("http_503");
        assertThat(e.getMessage()).isEqualTo("HTTP 503 with no body");
    }

    @Test
    void aNonJsonErrorBodyBecomesHttpStatusCodeWithTheText() {
        node.reply(502, "<html>Bad Gateway</html>", Map.of("Content-Type", "text/html"));

        RailgunException e = catchThrowableOfType(RailgunException.class, () -> client.stream("s"));

        assertThat(e.status()).isEqualTo(502);
        assertThat(e.code()).isEqualTo("http_502");
        assertThat(e.getMessage()).isEqualTo("<html>Bad Gateway</html>");
    }

    @Test
    void jsonThatIsNotTheErrorObjectIsTakenAsText() {
        node.reply(404, "{\"message\": \"not found\"}");

        RailgunException e = catchThrowableOfType(RailgunException.class, () -> client.deleteStream("s"));

        assertThat(e.code()).isEqualTo("http_404");
        assertThat(e.getMessage()).isEqualTo("{\"message\": \"not found\"}");
    }

    @Test
    void anUnauthorizedRequestIs401WithTheNodesCode() {
        node.reply(401, "{\"error\": {\"code\": \"unauthorized\", \"message\": \"send Authorization: Bearer <token>\"}}");

        RailgunException e = catchThrowableOfType(RailgunException.class, () -> client.metrics("s"));

        assertThat(e.status()).isEqualTo(401);
        assertThat(e.code()).isEqualTo("unauthorized");
    }

    @Test
    void aMalformedSuccessBodyIsBadResponse() {
        node.reply(200, "{\"eventId\": \"e1\", \"metr").reply(200, "{\"streams\": 3}");

        RailgunException truncated = catchThrowableOfType(RailgunException.class, () -> client.send("s", Map.of()));
        RailgunException wrongShape = catchThrowableOfType(RailgunException.class, () -> client.streams());

        assertThat(truncated.status()).isEqualTo(200);
        assertThat(truncated.code()).isEqualTo(RailgunException.BAD_RESPONSE);
        assertThat(wrongShape.code()).isEqualTo(RailgunException.BAD_RESPONSE);
        assertThat(wrongShape.getMessage()).contains("streams");
    }

    @Test
    void asyncFailuresCompleteTheFutureWithTheException() {
        node.reply(400, "{\"error\": {\"code\": \"bad_event\", \"message\": \"field amount: expected a number\"}}");

        Throwable failure = catchThrowableOfType(ExecutionException.class,
                () -> client.sendAsync("s", Map.of("amount", "x")).get()).getCause();

        assertThat(failure).isInstanceOfSatisfying(RailgunException.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.code()).isEqualTo("bad_event");
        });
    }

    @Test
    void decodeEventReplyOfAnErrorThrows() {
        node.reply(404, "{\"error\": {\"code\": \"unknown_stream\", \"message\": \"no stream s\"}}");

        RawResponse raw = client.sendJsonAsync("s", "{}".getBytes(StandardCharsets.UTF_8)).join();

        assertThatThrownBy(() -> client.decodeEventReply(raw)).isInstanceOfSatisfying(RailgunException.class,
                e -> assertThat(e.code()).isEqualTo("unknown_stream"));
    }

    @Test
    void connectionRefusedIsUnreachable() throws IOException {
        URI closed = URI.create("http://127.0.0.1:" + freePortNobodyListensOn());
        try (RailgunClient nowhere = RailgunClient.builder().baseUri(closed).requestTimeout(Duration.ofSeconds(5)).build()) {
            RailgunException sync = catchThrowableOfType(RailgunException.class, () -> nowhere.stream("s"));
            CompletionException async = catchThrowableOfType(CompletionException.class,
                    () -> nowhere.sendJsonAsync("s", new byte[] {'{', '}'}).join());

            assertThat(sync.status()).isZero();
            assertThat(sync.code()).isEqualTo(RailgunException.UNREACHABLE);
            assertThat(sync.isRetriable()).isTrue();
            assertThat(sync.getMessage()).contains(closed.toString());
            assertThat(async.getCause()).isInstanceOfSatisfying(RailgunException.class,
                    e -> assertThat(e.code()).isEqualTo(RailgunException.UNREACHABLE));
            assertThat(nowhere.health()).isFalse();
        }
    }

    @Test
    void noReplyWithinTheRequestTimeoutIsTimeout() {
        node.replyAfter(Duration.ofSeconds(2), 200, "{\"eventId\": \"e1\", \"metrics\": {}}");
        try (RailgunClient impatient = RailgunClient.builder().baseUri(node.baseUri())
                .requestTimeout(Duration.ofMillis(200)).build()) {
            RailgunException e = catchThrowableOfType(RailgunException.class, () -> impatient.send("s", Map.of()));

            assertThat(e.status()).isZero();
            assertThat(e.code()).isEqualTo(RailgunException.TIMEOUT);
            assertThat(e.isRetriable()).isTrue();
        }
    }

    private static int freePortNobodyListensOn() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
