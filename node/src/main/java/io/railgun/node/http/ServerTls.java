package io.railgun.node.http;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/** The HTTPS server's TLS context, from a PKCS12 keystore holding the certificate and its private key. */
final class ServerTls {
    private ServerTls() {}

    /**
     * @throws IllegalArgumentException when the keystore cannot be read or opened with the password
     */
    static SSLContext context(Path keystore, String password) {
        char[] pw = password == null ? new char[0] : password.toCharArray();
        try (InputStream in = Files.newInputStream(keystore)) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, pw);
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, pw);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), null, null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot use TLS keystore " + keystore + " (" + e.getMessage() + "): give a "
                    + "PKCS12 file holding the server's certificate and private key, and its password", e);
        }
    }
}
