package io.railgun.node.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded broker's credentials file: generated once, random, kept private, refused when not understood. */
class BrokerCredentialsTest {
    @TempDir
    Path dir;

    @Test
    void generatedOncePerDataDirectoryAndDifferentForEach() throws IOException {
        BrokerCredentials a = BrokerCredentials.loadOrCreate(dir.resolve("a"));
        BrokerCredentials b = BrokerCredentials.loadOrCreate(dir.resolve("b"));
        assertThat(a.clientProperties().get("sasl.jaas.config")).isNotEqualTo(b.clientProperties().get("sasl.jaas.config"))
                .matches(".*password=\"[A-Za-z0-9_-]{43}\";");
        assertThat(BrokerCredentials.loadOrCreate(dir.resolve("a")).brokerOverrides()).isEqualTo(a.brokerOverrides());
        assertThat(a.brokerOverrides()).containsKeys("listener.name.client.plain.sasl.jaas.config",
                "listener.name.controller.plain.sasl.jaas.config", "sasl.mechanism.controller.protocol");
    }

    @Test
    void aLooserFileIsTightenedWhenRead() throws IOException {
        Path file = BrokerCredentials.loadOrCreate(dir).file();
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        BrokerCredentials.loadOrCreate(dir);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void aFileItCannotUnderstandIsAnErrorThatSaysWhatToDo() throws IOException {
        Path file = dir.resolve(BrokerCredentials.FILE);
        Files.writeString(file, "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-256\n");
        assertThatThrownBy(() -> BrokerCredentials.loadOrCreate(dir)).isInstanceOf(IOException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("delete it");
    }
}
