package io.railgun.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** A self-signed certificate for 127.0.0.1 and localhost, for the TLS tests, and a client context trusting it. */
public final class SelfSignedKeystore {
    private SelfSignedKeystore() {}

    /** Writes a PKCS12 keystore (alias {@code railgun}) with the running JDK's keytool. */
    public static void create(Path keystore, String password) throws Exception {
        Path javaBinary = Path.of(ProcessHandle.current().info().command().orElseThrow());
        boolean windows = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("win");
        Path keytool = javaBinary.resolveSibling(windows ? "keytool.exe" : "keytool");
        Process p = new ProcessBuilder(List.of(keytool.toString(), "-genkeypair", "-alias", "railgun", "-keyalg", "EC",
                "-groupname", "secp256r1", "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-validity", "2", "-storetype", "PKCS12", "-keystore", keystore.toString(), "-storepass", password,
                "-keypass", password, "-noprompt"))
                .redirectErrorStream(true)
                .start();
        String output = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        assertThat(Files.size(keystore)).isPositive();
    }

    /** A client context that trusts exactly the keystore's certificate. */
    public static SSLContext trusting(Path keystore, String password) throws Exception {
        KeyStore server = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            server.load(in, password.toCharArray());
        }
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("railgun", server.getCertificate("railgun"));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        return context;
    }
}
