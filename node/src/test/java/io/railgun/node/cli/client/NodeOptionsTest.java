package io.railgun.node.cli.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railgun.node.SelfSignedKeystore;
import io.railgun.node.cli.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/** The node's address, token and TLS from the same flags, variables and config file as {@code start}. */
class NodeOptionsTest {
    @TempDir
    Path dir;

    private static NodeTarget resolve(Map<String, String> env, String... args) {
        CommandSpec spec = CommandSpec.create();
        NodeOptions.addTo(spec);
        return NodeOptions.resolve(new CommandLine(spec).parseArgs(args), env);
    }

    @Test
    void theDefaultIsWhereStartListensByDefault() {
        NodeTarget target = resolve(Map.of());
        assertThat(target.uri()).hasToString("http://127.0.0.1:7070");
        assertThat(target.origin()).isEqualTo("the default");
        assertThat(target.token()).isNull();
        assertThat(target.requestTimeout()).isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void hostAndPortComeFromFlagsVariablesOrTheConfigFileInThatOrder() throws Exception {
        Path config = Files.writeString(dir.resolve("node.yaml"), "port: 7072\nhost: 0.0.0.0\nrequest-timeout: 5s\n");
        NodeTarget fromFile = resolve(Map.of("RAILGUN_CONFIG", config.toString()));
        assertThat(fromFile.uri()).hasToString("http://127.0.0.1:7072");
        assertThat(fromFile.origin()).contains("'port' in " + config);
        assertThat(fromFile.requestTimeout()).isEqualTo(Duration.ofSeconds(15));
        assertThat(resolve(Map.of("RAILGUN_CONFIG", config.toString(), "RAILGUN_PORT", "7073")).uri())
                .hasToString("http://127.0.0.1:7073");
        assertThat(resolve(Map.of("RAILGUN_PORT", "7073"), "--port", "7074", "--host", "node1").uri())
                .hasToString("http://node1:7074");
        assertThat(resolve(Map.of(), "--host", "::1", "--port", "7075").uri()).hasToString("http://[::1]:7075");
    }

    @Test
    void aUrlWinsOverALowerSourceAndConflictsWithTheSameOne() {
        assertThat(resolve(Map.of("RAILGUN_PORT", "7073"), "--url", "https://n1.example:8443/").uri())
                .hasToString("https://n1.example:8443");
        assertThat(resolve(Map.of("RAILGUN_URL", "http://n2:7070"), "--port", "7074").uri())
                .hasToString("http://127.0.0.1:7074");
        assertThatThrownBy(() -> resolve(Map.of(), "--url", "http://n2:7070", "--port", "7074"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("--url and --port are both set");
        assertThatThrownBy(() -> resolve(Map.of(), "--url", "ftp://n2")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("--url: 'ftp://n2' is not an http:// or https:// URL");
        assertThatThrownBy(() -> resolve(Map.of(), "--port", "0")).hasMessageContaining("port 0");
    }

    @Test
    void theAdminTokenIsSentWhenSetElseTheIngestToken() throws Exception {
        assertThat(resolve(Map.of("RAILGUN_INGEST_TOKEN", "ing")).token()).isEqualTo("ing");
        Path file = Files.writeString(dir.resolve("admin.token"), "adm\n");
        NodeTarget target = resolve(Map.of("RAILGUN_INGEST_TOKEN", "ing"), "--admin-token-file", file.toString());
        assertThat(target.token()).isEqualTo("adm");
        assertThat(target.tokenOrigin()).isEqualTo("--admin-token-file");
    }

    @Test
    void aTypoInAVariableIsRefusedWithTheClosestName() {
        assertThatThrownBy(() -> resolve(Map.of("RAILGUN_PROT", "1"))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("did you mean 'RAILGUN_PORT'?");
    }

    @Test
    void theNodesKeystoreMeansHttpsTrustingItsCertificate() throws Exception {
        Path keystore = dir.resolve("node.p12");
        SelfSignedKeystore.create(keystore, "changeit");
        NodeTarget target = resolve(Map.of("RAILGUN_TLS_KEYSTORE_PASSWORD", "changeit"), "--tls-keystore",
                keystore.toString(), "--port", "7443");
        assertThat(target.uri()).hasToString("https://127.0.0.1:7443");
        assertThat(target.sslContext()).isNotNull();
        assertThatThrownBy(() -> resolve(Map.of(), "--tls-keystore", keystore.toString(), "--tls-keystore-password",
                "wrong")).isInstanceOf(ConfigException.class).hasMessageContaining("cannot use " + keystore);
    }
}
