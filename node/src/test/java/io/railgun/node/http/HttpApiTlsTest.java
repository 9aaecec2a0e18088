package io.railgun.node.http;

import io.railgun.node.SelfSignedKeystore;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railgun.node.NodeConfig;
import io.railgun.node.http.TestHttp.Response;
import io.railgun.node.ops.NodeMetrics;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** HTTPS with a self-signed certificate made by the running JDK's keytool. */
@Timeout(120)
class HttpApiTlsTest {
    static final String PASSWORD = "changeit";

    @TempDir
    static Path dir;
    static Path keystore;

    @BeforeAll
    static void makeKeystore() throws Exception {
        keystore = dir.resolve("server.p12");
        SelfSignedKeystore.create(keystore, PASSWORD);
    }

    @Test
    void servesOverHttpsWithTheKeystoresCertificate() throws Exception {
        NodeConfig config = NodeConfig.defaults().withHttp("127.0.0.1", 0).withTls(keystore, PASSWORD)
                .withTokens(null, "adm");
        try (HttpApi api = HttpApi.start(config, new UnreachableBackend(), new NodeMetrics())) {
            assertThat(api.uri().getScheme()).isEqualTo("https");
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .sslContext(SelfSignedKeystore.trusting(keystore, PASSWORD)).build();
            TestHttp https = new TestHttp(api.uri(), client);
            Response health = https.get("/health");
            assertThat(health.status()).isEqualTo(200);
            assertThat(health.json().path("status").asText()).isEqualTo("ok");
            assertThat(https.get("/v1/streams").status()).isEqualTo(401);
            Response bad = https.call("PUT", "/v1/streams/s", "{", "Authorization", "Bearer adm");
            assertThat(bad.status()).isEqualTo(400);
            assertThat(bad.errorCode()).isEqualTo("invalid_json");

            // a client that does not trust the certificate cannot talk to it
            TestHttp untrusting = new TestHttp(api.uri(), HttpClient.newBuilder().build());
            assertThatThrownBy(() -> untrusting.get("/health")).isInstanceOf(AssertionError.class)
                    .hasCauseInstanceOf(javax.net.ssl.SSLHandshakeException.class);
        }
    }

    @Test
    void aWrongPasswordFailsAtStartWithAClearMessage() {
        NodeConfig config = NodeConfig.defaults().withHttp("127.0.0.1", 0).withTls(keystore, "wrong");
        assertThatThrownBy(() -> HttpApi.start(config, new UnreachableBackend(), new NodeMetrics()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot use TLS keystore")
                .hasMessageContaining("PKCS12");
    }
}
