package io.railgun.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The builder's transport options: HTTPS with a self-signed certificate, and the executor. */
class RailgunClientTransportTest {
    private static final char[] PASSWORD = "changeit".toCharArray();
    private static final String REPLY = "{\"eventId\": \"e1\", \"metrics\": {\"n\": 1}}";

    @Test
    void httpsWithASelfSignedCertificateTrustedThroughTheSslContext(@TempDir Path dir) throws Exception {
        KeyStore keyStore = selfSignedKeyStore(dir);
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(keyStore, PASSWORD);
        SSLContext serverTls = SSLContext.getInstance("TLS");
        serverTls.init(keys.getKeyManagers(), null, null);
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(keyStore);
        SSLContext clientTls = SSLContext.getInstance("TLS");
        clientTls.init(null, trust.getTrustManagers(), null);

        try (StubNode node = new StubNode(serverTls)) {
            node.reply(200, REPLY);
            try (RailgunClient trusting = RailgunClient.builder().baseUri(node.baseUri()).sslContext(clientTls)
                    .token("t").build();
                    RailgunClient defaultTrust = RailgunClient.builder().baseUri(node.baseUri()).build()) {
                assertThat(node.baseUri().getScheme()).isEqualTo("https");
                assertThat(trusting.send("s", Map.of("id", "e1")).metric("n")).isEqualTo(1L);
                assertThat(node.lastRequest().header("Authorization")).isEqualTo("Bearer t");

                // the JDK's default trust store does not know the certificate: no connection at all
                RailgunException refused = catchThrowableOfType(RailgunException.class, () -> defaultTrust.streams());
                assertThat(refused.status()).isZero();
                assertThat(refused.code()).isEqualTo(RailgunException.UNREACHABLE);
            }
        }
    }

    @Test
    void theConfiguredExecutorRunsTheClientsWork() throws IOException, InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        AtomicInteger tasks = new AtomicInteger();
        Executor counting = task -> {
            tasks.incrementAndGet();
            pool.execute(task);
        };
        try (StubNode node = new StubNode()) {
            node.reply(200, REPLY);
            try (RailgunClient client = RailgunClient.builder().baseUri(node.baseUri()).executor(counting).build()) {
                assertThat(client.sendAsync("s", Map.of("id", "e1")).join().eventId()).isEqualTo("e1");
            }
        } finally {
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(tasks).hasPositiveValue();
    }

    /** A PKCS12 key store holding an EC key and a certificate for 127.0.0.1 and localhost, made by keytool. */
    private static KeyStore selfSignedKeyStore(Path dir) throws Exception {
        Path file = dir.resolve("node.p12");
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process process = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "node", "-keyalg", "EC",
                "-groupname", "secp256r1", "-dname", "CN=localhost", "-ext", "san=ip:127.0.0.1,dns:localhost",
                "-validity", "2", "-storetype", "PKCS12", "-keystore", file.toString(), "-storepass",
                new String(PASSWORD)).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor()).as("keytool: %s", output).isZero();
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            keyStore.load(in, PASSWORD);
        }
        return keyStore;
    }
}
