package io.railgun.node.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.railgun.node.frontend.ApiException;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** Path matching, token checks, future awaiting and the body buffer. */
class SmallPartsTest {

    @Test
    void matchesEveryPathShape() {
        assertThat(RequestPath.parse("/health")).isEqualTo(new RequestPath(RequestPath.Shape.HEALTH, null, null));
        assertThat(RequestPath.parse("/metrics").shape()).isEqualTo(RequestPath.Shape.PROMETHEUS);
        assertThat(RequestPath.parse("/v1/streams").shape()).isEqualTo(RequestPath.Shape.STREAMS);
        assertThat(RequestPath.parse("/v1/cluster")).isEqualTo(new RequestPath(RequestPath.Shape.CLUSTER, null, null));
        assertThat(RequestPath.parse("/v1/cluster/")).isEqualTo(new RequestPath(RequestPath.Shape.CLUSTER, null, null));
        assertThat(RequestPath.parse("/v1/streams/")).isEqualTo(new RequestPath(RequestPath.Shape.STREAMS, null, null));
        assertThat(RequestPath.parse("/v1/streams/p")).isEqualTo(new RequestPath(RequestPath.Shape.STREAM, "p", null));
        assertThat(RequestPath.parse("/v1/streams/p/metrics")).isEqualTo(new RequestPath(RequestPath.Shape.METRICS, "p", null));
        assertThat(RequestPath.parse("/v1/streams/p/metrics/n")).isEqualTo(new RequestPath(RequestPath.Shape.METRIC, "p", "n"));
        assertThat(RequestPath.parse("/v1/streams/p/events")).isEqualTo(new RequestPath(RequestPath.Shape.EVENTS, "p", null));
        assertThat(RequestPath.parse("/v1/streams/p/events:batch").shape()).isEqualTo(RequestPath.Shape.BATCH);
        assertThat(RequestPath.parse("/v1/streams/a%20b/metrics/x%2Fy"))
                .isEqualTo(new RequestPath(RequestPath.Shape.METRIC, "a b", "x/y"));
        assertThat(RequestPath.parse("/v1/streams/a+b").stream()).isEqualTo("a+b");
        for (String p : new String[] {"/", "", "/v2/streams", "/v1/streams//events", "/v1/streams/p/event",
                "/v1/streams/p/metrics/n/x", "/v1/streams/%zz", "/v1/streams/p/metrics//", "/healthz"}) {
            assertThat(RequestPath.parse(p)).as(p).isNull();
        }
        assertThat(RequestPath.parse("/v1/streams/p/metrics/").shape()).isEqualTo(RequestPath.Shape.METRICS);
    }

    @Test
    void endpointsKnowTheirAllowedMethodsAndScopes() {
        assertThat(Endpoint.allowed(RequestPath.Shape.STREAM)).isEqualTo("PUT, GET, DELETE");
        assertThat(Endpoint.allowed(RequestPath.Shape.EVENTS)).isEqualTo("POST");
        assertThat(Endpoint.find(RequestPath.Shape.METRIC, "GET")).isEqualTo(Endpoint.READ_METRIC);
        assertThat(Endpoint.READ_METRIC.scope).isEqualTo(Scope.INGEST);
        assertThat(Endpoint.PUT_STREAM.scope).isEqualTo(Scope.ADMIN);
        assertThat(Endpoint.SEND_BATCH.route).isEqualTo("POST /v1/streams/{stream}/events:batch");
        assertThat(Endpoint.find(RequestPath.Shape.EVENTS, "GET")).isNull();
    }

    @Test
    void bearerTokensAndScopes() {
        BearerAuth none = new BearerAuth(null, null);
        assertThat(none.enabled()).isFalse();
        assertThat(none.check(null, Scope.ADMIN, "x")).isNull();

        BearerAuth both = new BearerAuth("ing", "adm");
        assertThat(both.check(null, Scope.NONE, "x")).isNull();
        assertThat(both.check(null, Scope.INGEST, "x").error().status()).isEqualTo(401);
        assertThat(both.check(null, Scope.INGEST, "x").challenge()).isEqualTo("Bearer realm=\"railgun\"");
        assertThat(both.check("Basic abc", Scope.INGEST, "x").error().getMessage()).contains("Bearer scheme");
        assertThat(both.check("Bearer nope", Scope.INGEST, "x").challenge()).contains("invalid_token");
        assertThat(both.check("Bearer ing", Scope.INGEST, "x")).isNull();
        assertThat(both.check("bearer  ing ", Scope.INGEST, "x")).isNull();
        assertThat(both.check("Bearer adm", Scope.INGEST, "x")).isNull();
        assertThat(both.check("Bearer adm", Scope.ADMIN, "x")).isNull();
        BearerAuth.Refusal forbidden = both.check("Bearer ing", Scope.ADMIN, "PUT /v1/streams/s");
        assertThat(forbidden.error().status()).isEqualTo(403);
        assertThat(forbidden.error().code()).isEqualTo("forbidden");
        assertThat(forbidden.error().getMessage()).startsWith("PUT /v1/streams/s needs the admin scope");
        assertThat(forbidden.challenge()).isNull();

        BearerAuth ingestOnly = new BearerAuth("ing", null);
        assertThat(ingestOnly.check("Bearer ing", Scope.INGEST, "x")).isNull();
        assertThat(ingestOnly.check("Bearer ing", Scope.ADMIN, "x").error().getMessage()).contains("no admin token");
        BearerAuth adminOnly = new BearerAuth(null, "adm");
        assertThat(adminOnly.check("Bearer adm", Scope.INGEST, "x")).isNull();
        assertThat(adminOnly.check("Bearer ", Scope.INGEST, "x").error().status()).isEqualTo(401);
    }

    @Test
    void awaitMapsTimeoutsAndFailures() {
        assertThat(Futures.await(CompletableFuture.completedFuture(5), 10)).isEqualTo(5);
        assertThatThrownBy(() -> Futures.await(new CompletableFuture<>(), 20))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(503);
                    assertThat(e.code()).isEqualTo("timeout");
                    assertThat(e.retryAfterSeconds()).isEqualTo(1);
                    assertThat(e.getMessage()).contains("20 ms");
                });
        ApiException conflict = ApiException.conflict("backfilling", "wait");
        assertThatThrownBy(() -> Futures.await(CompletableFuture.failedFuture(conflict), 10)).isSameAs(conflict);
        assertThatThrownBy(() -> Futures.await(CompletableFuture.failedFuture(new CompletionException(conflict)), 10))
                .isSameAs(conflict);
        IllegalStateException bug = new IllegalStateException("bug");
        assertThatThrownBy(() -> Futures.await(CompletableFuture.failedFuture(bug), 10))
                .isInstanceOf(CompletionException.class).hasCause(bug);
        CompletableFuture<Object> cancelled = new CompletableFuture<>();
        cancelled.cancel(false);
        assertThatThrownBy(() -> Futures.await(cancelled, 10))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(503));
    }

    @Test
    void bodyBufferTakesTheReadableBytesUpToTheLimitAndLeavesTheBufferAsItWas() {
        GrowableBytes b = new GrowableBytes(16);
        byte[] data = new byte[1000];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) i;
        }
        ByteBuf direct = Unpooled.directBuffer(1000).writeBytes(data);
        direct.readerIndex(3);
        assertThat(b.readFrom(direct, 996)).isFalse();
        assertThat(b.length()).isZero();
        assertThat(b.readFrom(direct, 997)).isTrue();
        assertThat(Arrays.copyOf(b.array(), b.length())).isEqualTo(Arrays.copyOfRange(data, 3, 1000));
        assertThat(direct.readerIndex()).isEqualTo(3);
        CompositeByteBuf pieces = Unpooled.compositeBuffer().addComponents(true, Unpooled.wrappedBuffer(data, 0, 10),
                Unpooled.wrappedBuffer(data, 10, 5));
        assertThat(b.readFrom(pieces, 100)).isTrue();
        assertThat(Arrays.copyOf(b.array(), b.length())).isEqualTo(Arrays.copyOf(data, 15));
        assertThat(b.readFrom(Unpooled.EMPTY_BUFFER, 100)).isTrue();
        assertThat(b.length()).isZero();
        direct.release();
        pieces.release();
    }
}
