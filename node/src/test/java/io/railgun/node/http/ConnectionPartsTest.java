package io.railgun.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** The connection caps' counting and the request-target check, without a server. */
class ConnectionPartsTest {

    @Test
    void capsCountPerNodeAndPerAddressAndGiveBackPlaces() throws Exception {
        ConnectionLimits limits = new ConnectionLimits(3, 2);
        InetAddress a = InetAddress.getByName("127.0.0.2");
        InetAddress b = InetAddress.getByName("127.0.0.3");
        assertThat(limits.acquire(a)).isNull();
        assertThat(limits.acquire(a)).isNull();
        assertThat(limits.acquire(a)).isEqualTo(ConnectionLimits.Refusal.ADDRESS);
        assertThat(limits.acquire(b)).isNull();
        assertThat(limits.acquire(b)).isEqualTo(ConnectionLimits.Refusal.NODE);
        assertThat(limits.open()).isEqualTo(3);
        limits.release(a);
        assertThat(limits.acquire(b)).isNull();
        assertThat(limits.acquire(a)).isEqualTo(ConnectionLimits.Refusal.NODE);
        limits.release(a);
        limits.release(b);
        limits.release(b);
        assertThat(limits.open()).isZero();
        // every place given back: the caps are whole again
        assertThat(limits.acquire(a)).isNull();
        assertThat(limits.acquire(a)).isNull();
        assertThat(limits.acquire(b)).isNull();
    }

    @Test
    void requestTargetsAreSplitOrRefused() {
        assertThat(RequestTarget.split("/v1/streams/p/metrics/s?card=c1&x=%41"))
                .containsExactly("/v1/streams/p/metrics/s", "card=c1&x=%41");
        assertThat(RequestTarget.split("/health")).containsExactly("/health", null);
        assertThat(RequestTarget.split("/v1/streams/a%20b")).containsExactly("/v1/streams/a%20b", null);
        assertThat(RequestTarget.split("http://node:7070/v1/streams?x=1")).containsExactly("/v1/streams", "x=1");
        assertThat(RequestTarget.split("HTTP://node:7070")).containsExactly("/", null);
        assertThat(RequestTarget.split("http://node:7070?x=1")).containsExactly("/", "x=1");
        // the query's escapes are the point reads' to check (400 invalid_query, with its own message)
        assertThat(RequestTarget.split("/v1/streams/p/metrics/s?card=%zz")).containsExactly(
                "/v1/streams/p/metrics/s", "card=%zz");
        for (String bad : new String[] {"*", "v1/streams", "/v1/streams/%zz", "/v1/streams/a%2", "/v1/streams/a%",
                "/a|b", "/a\"b", "/a{b}", "/caf\u00e9", "/a\\b", "/health?x=a#frag", "ftp://host/x", "/a b"}) {
            assertThat(RequestTarget.split(bad)).as(bad).isNull();
        }
    }
}
