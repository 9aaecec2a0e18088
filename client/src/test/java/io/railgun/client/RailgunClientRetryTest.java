package io.railgun.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The opt-in {@link RetryPolicy}: its waits, and the client against a stub node that answers 503
 * with Retry-After, then 200. The waits are recorded, not waited.
 */
class RailgunClientRetryTest {
    private static final String REPLY = "{\"eventId\": \"e1\", \"metrics\": {\"n\": 1}}";
    private static final String DUPLICATE = "{\"eventId\": \"e1\", \"metrics\": {\"n\": 1}, \"duplicate\": true}";
    private static final String BUSY = "{\"error\": {\"code\": \"timeout\", \"message\": \"no reply within 10s\"}}";
    private static final Map<String, Object> EVENT = Map.of("id", "e1", "card", "c1", "amount", 12.5);
    /** No jitter: each wait is exactly half the backoff. */
    private static final RetryPolicy LOW =
            RetryPolicy.exponential(4, Duration.ofMillis(200), Duration.ofSeconds(1)).withRandom(() -> 0.0);

    private final List<Duration> waits = new CopyOnWriteArrayList<>();
    private final Pause recording = new Pause() {
        @Override
        public void sleep(Duration wait) {
            waits.add(wait);
        }

        @Override
        public Executor after(Duration wait, Executor executor) {
            waits.add(wait);
            return Runnable::run;
        }
    };
    private StubNode node;
    private RailgunClient client;

    @BeforeEach
    void start() throws IOException {
        node = new StubNode();
        client = RailgunClient.builder().baseUri(node.baseUri()).retry(LOW).pause(recording).build();
    }

    @AfterEach
    void stop() {
        client.close();
        node.close();
    }

    @Test
    void backoffDoublesUpToItsCapWithJitterInTheUpperHalf() {
        RetryPolicy high = RetryPolicy.exponential(9, Duration.ofMillis(200), Duration.ofSeconds(1))
                .withRandom(() -> 0.999_999_999);
        assertThat(List.of(LOW.delay(1, 0), LOW.delay(2, 0), LOW.delay(3, 0), LOW.delay(4, 0), LOW.delay(60, 0)))
                .containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400),
                        Duration.ofMillis(500), Duration.ofMillis(500));
        assertThat(high.delay(1, 0)).isBetween(Duration.ofMillis(199), Duration.ofMillis(200));
        assertThat(high.delay(4, 0)).isBetween(Duration.ofMillis(999), Duration.ofSeconds(1));
    }

    @Test
    void retryAfterIsAFloorCappedAtThirtySeconds() {
        assertThat(LOW.delay(1, 2)).isEqualTo(Duration.ofSeconds(2));
        assertThat(LOW.delay(3, 0)).isEqualTo(Duration.ofMillis(400));
        assertThat(LOW.delay(1, 3600)).isEqualTo(RetryPolicy.MAX_RETRY_AFTER);
    }

    @Test
    void argumentsAreChecked() {
        assertThatThrownBy(() -> RetryPolicy.exponential(0, Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetryPolicy.exponential(3, Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(RetryPolicy.none().maxAttempts()).isEqualTo(1);
    }

    @Test
    void a503IsSentAgainAfterRetryAfterWithTheSameEvent() {
        node.reply(503, BUSY, Map.of("Retry-After", "1")).reply(503, BUSY, Map.of("Retry-After", "1"))
                .reply(200, DUPLICATE);

        EventReply reply = client.send("payments", EVENT);

        assertThat(reply.duplicate()).isTrue();
        assertThat(waits).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(1));
        assertThat(node.requests()).hasSize(3).extracting(StubNode.Recorded::bodyText).containsOnly(
                node.requests().getFirst().bodyText());
    }

    @Test
    void withoutRetryAfterTheWaitsAreTheBackoff() {
        node.reply(502, "bad gateway").reply(503, BUSY).reply(504, "").reply(200, "[" + REPLY + "]");

        assertThat(client.sendBatch("payments", List.of(EVENT))).extracting(EventReply::eventId).containsExactly("e1");
        assertThat(waits).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400));
    }

    @Test
    void afterMaxAttemptsTheLastErrorIsThrown() {
        for (int i = 0; i < 5; i++) {
            node.reply(503, BUSY, Map.of("Retry-After", "0"));
        }

        RailgunException e = catchThrowableOfType(RailgunException.class,
                () -> client.read("payments", "card_sum_5m", Map.of("card", "c1")));

        assertThat(e.status()).isEqualTo(503);
        assertThat(e.code()).isEqualTo("timeout");
        assertThat(node.requests()).hasSize(4);
        assertThat(waits).hasSize(3);
    }

    @Test
    void aClientMistakeIsNotRetried() {
        node.reply(400, "{\"error\": {\"code\": \"invalid_value\", \"message\": \"amount: expected a number\"}}");

        assertThatThrownBy(() -> client.send("payments", EVENT)).isInstanceOf(RailgunException.class);
        assertThat(node.requests()).hasSize(1);
        assertThat(waits).isEmpty();
    }

    @Test
    void changesAreNotRepeatedAfterA503() {
        // the metric may have been added: a second POST would be 400 duplicate_metric
        node.reply(503, "{\"error\": {\"code\": \"control_unavailable\", \"message\": \"try again\"}}",
                Map.of("Retry-After", "1")).reply(503, BUSY);

        assertThatThrownBy(() -> client.addMetrics("payments", "SELECT COUNT(*) FROM payments GROUP BY card [RANGE 1 HOUR]"))
                .isInstanceOfSatisfying(RailgunException.class, e -> assertThat(e.status()).isEqualTo(503));
        assertThatThrownBy(() -> client.deleteStream("payments")).isInstanceOf(RailgunException.class);
        assertThat(node.requests()).hasSize(2);
    }

    @Test
    void theDefaultSendsOnce() throws IOException {
        node.reply(503, BUSY, Map.of("Retry-After", "1"));
        try (RailgunClient once = RailgunClient.builder().baseUri(node.baseUri()).pause(recording).build()) {
            RailgunException e = catchThrowableOfType(RailgunException.class, () -> once.send("payments", EVENT));
            assertThat(e.retryAfterSeconds()).isEqualTo(1);
        }
        assertThat(node.requests()).hasSize(1);
        assertThat(waits).isEmpty();
    }

    @Test
    void noReplyInTimeIsSentAgainWithTheSameEvent() {
        node.replyAfter(Duration.ofSeconds(2), 200, REPLY).reply(200, DUPLICATE);
        try (RailgunClient impatient = RailgunClient.builder().baseUri(node.baseUri()).requestTimeout(Duration.ofMillis(300))
                .retry(LOW).pause(recording).build()) {
            assertThat(impatient.send("payments", EVENT).duplicate()).isTrue();
        }
        assertThat(node.requests()).hasSize(2);
        assertThat(node.requests().get(1).bodyText()).isEqualTo(node.requests().getFirst().bodyText());
        assertThat(waits).containsExactly(Duration.ofMillis(100));
    }

    @Test
    void aRefusedConnectionIsRetriedEvenForAChange() throws IOException {
        URI closed = URI.create("http://127.0.0.1:" + freePortNobodyListensOn());
        try (RailgunClient nowhere = RailgunClient.builder().baseUri(closed).retry(LOW).pause(recording).build()) {
            RailgunException e = catchThrowableOfType(RailgunException.class,
                    () -> nowhere.addMetrics("payments", "SELECT COUNT(*) FROM payments GROUP BY card [RANGE 1 HOUR]"));
            assertThat(e.code()).isEqualTo(RailgunException.UNREACHABLE);
            assertThat(nowhere.health()).isFalse();
        }
        assertThat(waits).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400));
    }

    @Test
    void asyncSendsAreRetriedWithTheSameEvent() {
        node.reply(503, BUSY, Map.of("Retry-After", "2")).reply(200, "[" + DUPLICATE + "]");

        List<EventReply> replies = client.sendBatchAsync("payments", List.of(EVENT)).join();

        assertThat(replies).extracting(EventReply::duplicate).containsExactly(true);
        assertThat(waits).containsExactly(Duration.ofSeconds(2));
        assertThat(node.requests().get(1).bodyText()).isEqualTo(node.requests().getFirst().bodyText());
    }

    @Test
    void asyncFailuresAfterTheLastAttemptCompleteTheFutureWithTheException() {
        for (int i = 0; i < 4; i++) {
            node.reply(503, BUSY, Map.of("Retry-After", "1"));
        }

        Throwable failure = catchThrowableOfType(ExecutionException.class,
                () -> client.sendAsync("payments", EVENT).get()).getCause();

        assertThat(failure).isInstanceOfSatisfying(RailgunException.class, e -> assertThat(e.status()).isEqualTo(503));
        assertThat(node.requests()).hasSize(4);
    }

    @Test
    void theInjectorsFastPathIsNeverRetried() {
        node.reply(503, BUSY, Map.of("Retry-After", "1"));

        RawResponse raw = client.sendJsonAsync("payments", "{}".getBytes()).join();

        assertThat(raw.status()).isEqualTo(503);
        assertThat(node.requests()).hasSize(1);
    }

    private static int freePortNobodyListensOn() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
