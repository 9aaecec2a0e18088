package io.railgun.node.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railgun.node.NodeConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ConfigLoader}: flags > RAILGUN_* environment > config file > defaults, the same keys in
 * every source, Kafka client properties from all three, and a clear error for every mistake.
 */
class ConfigLoaderTest {
    @TempDir
    Path dir;

    private static NodeConfig resolve(Map<String, String> env, String... args) {
        return ConfigLoader.resolve(args, env).config();
    }

    private Path file(String name, String content) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, content);
        return f;
    }

    private static ConfigException configError(Map<String, String> env, String... args) {
        try {
            ConfigLoader.resolve(args, env);
        } catch (ConfigException e) {
            return e;
        }
        throw new AssertionError("expected a ConfigException");
    }

    @Test
    void noSourceGivesTheDefaultsOfNodeConfig() {
        assertThat(resolve(Map.of())).isEqualTo(NodeConfig.defaults());
    }

    @Test
    void flagsBeatEnvironmentBeatsFileBeatsDefaults() throws IOException {
        Path f = file("railgun.properties", "port=1001\nnode-id=from-file\nreplication=3\n");
        var env = Map.of("RAILGUN_CONFIG", f.toString(), "RAILGUN_PORT", "1002", "RAILGUN_NODE_ID", "from-env");

        NodeConfig c = resolve(env, "--port", "1003");
        assertThat(c.port()).isEqualTo(1003);
        assertThat(c.nodeId()).isEqualTo("from-env");
        assertThat(c.replication()).isEqualTo(3);
        assertThat(c.processors()).isEqualTo(NodeConfig.defaults().processors());

        assertThat(resolve(env).port()).isEqualTo(1002);
        assertThat(resolve(Map.of("RAILGUN_CONFIG", f.toString())).port()).isEqualTo(1001);
    }

    @Test
    void eachValueRemembersWhereItCameFrom() throws IOException {
        Path f = file("railgun.yaml", "replication: 2\n");
        ResolvedConfig r = ConfigLoader.resolve(new String[] {"--port", "8080", "--config", f.toString()},
                Map.of("RAILGUN_NODE_ID", "n7"));
        assertThat(r.describe())
                .contains("port                   = 8080 (from --port)")
                .contains("node-id                = n7 (from RAILGUN_NODE_ID)")
                .contains("replication            = 2 (from 'replication' in " + f + ")")
                .contains("host                   = 127.0.0.1 (default)")
                .contains("config                 = " + f + " (from --config)")
                .contains("kafka                  = none (embedded broker) (default)");
    }

    @Test
    void aPropertiesFileSetsEverySetting() throws IOException {
        Path secret = file("ingest.token", "ingest-secret\n");
        Path keystore = file("https.p12", "not really a keystore");
        Path f = file("all.properties", """
                host=0.0.0.0
                port=8081
                data-dir=/var/lib/railgun
                kafka=k1:9092, k2:9093
                broker-port=19092
                node-id=node-a
                processors=6
                replication=3
                topic-replication=2
                input-retention=3d
                ingest-token-file=%s
                admin-token=admin-secret
                tls-keystore=%s
                tls-keystore-password=changeit
                max-body-bytes=1MiB
                max-batch-events=500
                request-timeout=2500ms
                checkpoint-interval=1m
                hot-keys=1000
                min-dedup-horizon=2d
                max-connections=500
                max-connections-per-address=50
                idle-timeout=2m
                header-timeout=5s
                body-timeout=15s
                state-memory=2GiB
                kafka-property.security.protocol=SASL_SSL
                """.formatted(secret, keystore));

        NodeConfig c = resolve(Map.of(), "--config", f.toString());

        assertThat(c).isEqualTo(new NodeConfig("0.0.0.0", 8081, Path.of("/var/lib/railgun"), "k1:9092,k2:9093",
                19092, "node-a", 6, 3, "ingest-secret", "admin-secret", keystore, "changeit",
                Map.of("security.protocol", "SASL_SSL"), 1L << 20, 500, 2500, 60_000, 1000, 2 * 86_400_000L, 500, 50,
                120_000, 5_000, 15_000, NodeConfig.DEFAULT_RECOVERY_RATE_BYTES, 2, 3 * 86_400_000L, 2L << 30));
    }

    @Test
    void aYamlFileTakesTheSameKeysWithKafkaPropertiesAsANestedMapAndServersAsAList() throws IOException {
        Path f = file("railgun.yml", """
                port: 9000
                data-dir: ./node-data
                kafka:
                  - k1:9092
                  - k2:9092
                request-timeout: 30s
                kafka-property:
                  security.protocol: SASL_SSL
                  sasl.mechanism: SCRAM-SHA-512
                  request.timeout.ms: 30000
                """);

        NodeConfig c = resolve(Map.of("RAILGUN_CONFIG", f.toString()));

        assertThat(c.port()).isEqualTo(9000);
        assertThat(c.dataDir()).isEqualTo(Path.of("./node-data"));
        assertThat(c.kafka()).isEqualTo("k1:9092,k2:9092");
        assertThat(c.requestTimeoutMs()).isEqualTo(30_000);
        assertThat(c.kafkaProperties()).containsExactlyInAnyOrderEntriesOf(Map.of("security.protocol", "SASL_SSL",
                "sasl.mechanism", "SCRAM-SHA-512", "request.timeout.ms", "30000"));
    }

    @Test
    void anEmptyYamlFileSetsNothing() throws IOException {
        Path f = file("empty.yaml", "# nothing yet\n");
        assertThat(resolve(Map.of(), "--config", f.toString())).isEqualTo(NodeConfig.defaults());
    }

    @Test
    void kafkaPropertiesComeFromAllThreeSourcesAndMergeKeyByKey() throws IOException {
        Path f = file("k.properties", """
                kafka-property.security.protocol=SASL_PLAINTEXT
                kafka-property.sasl.mechanism=PLAIN
                kafka-property.client.rack=file-rack
                """);
        var env = Map.of("RAILGUN_CONFIG", f.toString(),
                "RAILGUN_KAFKA_PROPERTY_SASL_MECHANISM", "SCRAM-SHA-512",
                "RAILGUN_KAFKA_PROPERTY_CLIENT_RACK", "env-rack",
                "RAILGUN_KAFKA_PROPERTY_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM", "");

        NodeConfig c = resolve(env, "--kafka-property", "client.rack=flag-rack",
                "--kafka-property", "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule"
                        + " required username=\"u\" password=\"p=q\";");

        assertThat(c.kafkaProperties()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "security.protocol", "SASL_PLAINTEXT",
                "sasl.mechanism", "SCRAM-SHA-512",
                "client.rack", "flag-rack",
                // an empty value is meaningful for Kafka: it turns host name verification off
                "ssl.endpoint.identification.algorithm", "",
                "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required"
                        + " username=\"u\" password=\"p=q\";"));
    }

    @Test
    void bootstrapServersAreNotAKafkaProperty() {
        assertThat(configError(Map.of(), "--kafka-property", "bootstrap.servers=k:9092").getMessage())
                .contains("--kafka");
        assertThat(configError(Map.of("RAILGUN_KAFKA_PROPERTY_BOOTSTRAP_SERVERS", "k:9092")).code())
                .isEqualTo(ConfigException.CONFLICT);
    }

    @Test
    void aKafkaPropertyFlagNeedsKeyEqualsValue() {
        assertThat(configError(Map.of(), "--kafka-property", "security.protocol").getMessage())
                .contains("--kafka-property expects KEY=VALUE");
    }

    @Test
    void anUnknownFileKeyIsAnErrorNamingTheValidKeys() throws IOException {
        Path f = file("typo.yaml", "prot: 8080\n");
        ConfigException e = configError(Map.of(), "--config", f.toString());
        assertThat(e.code()).isEqualTo(ConfigException.UNKNOWN_KEY);
        assertThat(e.getMessage())
                .contains("unknown key 'prot'")
                .contains("did you mean 'port'?")
                .contains(f.toString())
                .contains("host, port, data-dir, kafka, broker-port")
                .contains("admin-token-file")
                .contains("kafka-property.<kafka property>");
    }

    @Test
    void aMistypedKeyEvenWithoutValueIsAnError() throws IOException {
        Path f = file("typo.properties", "dta-dir=\n");
        assertThat(configError(Map.of(), "--config", f.toString()).getMessage()).contains("'dta-dir'");
    }

    @Test
    void anUnknownRailgunVariableIsAnErrorNamingTheValidOnes() {
        ConfigException e = configError(Map.of("RAILGUN_DATADIR", "/tmp/x"));
        assertThat(e.code()).isEqualTo(ConfigException.UNKNOWN_KEY);
        assertThat(e.getMessage())
                .contains("'RAILGUN_DATADIR' (did you mean 'RAILGUN_DATA_DIR'?)")
                .contains("RAILGUN_ADMIN_TOKEN")
                .contains("RAILGUN_KAFKA_PROPERTY_");
    }

    @Test
    void variablesOfTheScriptAndOfTheBrokerCommandAndOtherPrefixesAreAccepted() {
        var env = Map.of("RAILGUN_JAVA_OPTS", "-Xmx1g", "RAILGUN_BROKER_DATA_DIR", "/tmp/b", "PATH", "/usr/bin",
                "railgun_port", "1");
        assertThat(resolve(env)).isEqualTo(NodeConfig.defaults());
    }

    @Test
    void aConfigFileCannotNameAnother() throws IOException {
        Path f = file("loop.properties", "config=other.properties\n");
        assertThat(configError(Map.of(), "--config", f.toString()).getMessage()).contains("--config or RAILGUN_CONFIG");
    }

    @Test
    void aMissingOrStrangeConfigFileIsAnError() throws IOException {
        ConfigException missing = configError(Map.of("RAILGUN_CONFIG", dir.resolve("nope.yaml").toString()));
        assertThat(missing.code()).isEqualTo(ConfigException.UNREADABLE_FILE);
        assertThat(missing.getMessage()).startsWith("RAILGUN_CONFIG: config file").contains("does not exist");

        Path toml = file("railgun.toml", "port = 1\n");
        assertThat(configError(Map.of(), "--config", toml.toString()).getMessage())
                .contains("must be a .properties, .yaml or .yml file");

        Path broken = file("broken.yaml", "port: [1\n");
        assertThat(configError(Map.of(), "--config", broken.toString()).getMessage())
                .contains("is not valid YAML (line");

        Path list = file("list.yaml", "- port\n");
        assertThat(configError(Map.of(), "--config", list.toString()).getMessage())
                .contains("must be a map of keys to values");
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', textBlock = """
            port                | 70000         | is not a port number (0-65535)
            port                | abc           | is not a port number (0-65535)
            broker-port         | -1            | is not a port number (0-65535)
            processors          | 0             | is not a whole number of at least 1
            replication         | two           | is not a whole number of at least 1
            topic-replication   | 0             | is not auto or a number of copies of at least 1
            topic-replication   | three         | is not auto or a number of copies of at least 1
            input-retention     | 30s           | is not forever or a duration of at least 1m
            input-retention     | always        | is not a duration
            max-batch-events    | 1.5           | is not a whole number of at least 1
            hot-keys            | 0             | is not a whole number of at least 1
            node-id             | node 1        | is not a node id
            host                | my host       | is not a host name or IP address
            kafka               | localhost     | is not a list of Kafka servers
            kafka               | k1:9092,      | is not a list of Kafka servers
            kafka               | k1:0          | is not a list of Kafka servers
            request-timeout     | 10            | is not a duration
            request-timeout     | 0s            | is not a duration of at least 1ms
            checkpoint-interval | soon          | is not a duration
            min-dedup-horizon   | -1h           | is not a duration
            max-body-bytes      | 16 megabytes  | is not a size
            max-body-bytes      | 4g            | is not a size from 1 byte to 2147483647 bytes
            max-body-bytes      | 0             | is not a size from 1 byte
            """)
    void aBadValueIsAnErrorNamingItsSourceInEveryForm(String key, String value, String reason) throws IOException {
        String envVar = Setting.envVarOf(key);
        Path f = file("bad.properties", key + "=" + value + "\n");

        ConfigException fromFlag = configError(Map.of(), "--" + key, value);
        ConfigException fromEnv = configError(Map.of(envVar, value));
        ConfigException fromFile = configError(Map.of(), "--config", f.toString());

        assertThat(fromFlag.code()).isEqualTo(ConfigException.INVALID_VALUE);
        assertThat(fromFlag.getMessage()).startsWith("--" + key + ": '" + value + "' ").contains(reason);
        assertThat(fromEnv.getMessage()).startsWith(envVar + ": '" + value + "' ").contains(reason);
        assertThat(fromFile.getMessage()).startsWith("'" + key + "' in " + f + ": '" + value + "' ").contains(reason);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"500ms, 500", "10s, 10000", "5m, 300000", "5min, 300000", "2h, 7200000", "7d, 604800000",
            "PT10S, 10000", "pt1m30s, 90000", "' 15 s ', 15000", "10S, 10000", "0s, 0"})
    void durationsTakeAUnitOrIso8601(String text, long ms) {
        assertThat(resolve(Map.of("RAILGUN_MIN_DEDUP_HORIZON", text)).minDedupHorizonMs()).isEqualTo(ms);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"1048576, 1048576", "512k, 524288", "512KB, 524288", "16MiB, 16777216", "16m, 16777216",
            "1g, 1073741824", "100b, 100"})
    void sizesTakeBinaryUnits(String text, long bytes) {
        assertThat(resolve(Map.of(), "--max-body-bytes", text).maxBodyBytes()).isEqualTo(bytes);
    }

    @Test
    void secretsAreReadFromFilesWithoutTheTrailingNewline() throws IOException {
        Path token = file("admin.token", "  s3cret-token\n\n");
        Path password = file("keystore.password", "changeit\n");
        Path keystore = file("https.p12", "x");
        NodeConfig c = resolve(Map.of("RAILGUN_ADMIN_TOKEN_FILE", token.toString(),
                        "RAILGUN_TLS_KEYSTORE_PASSWORD_FILE", password.toString()),
                "--tls-keystore", keystore.toString(), "--ingest-token-file", token.toString());
        assertThat(c.adminToken()).isEqualTo("s3cret-token");
        assertThat(c.ingestToken()).isEqualTo("s3cret-token");
        assertThat(c.tlsKeystorePassword()).isEqualTo("changeit");
    }

    @Test
    void aSecretFromAFileFollowsTheSamePrecedenceAsItsValue() throws IOException {
        Path token = file("admin.token", "from-file-variant");
        Path f = file("r.properties", "admin-token=from-config-file\n");
        assertThat(resolve(Map.of("RAILGUN_CONFIG", f.toString(), "RAILGUN_ADMIN_TOKEN_FILE", token.toString()))
                .adminToken()).isEqualTo("from-file-variant");
        assertThat(resolve(Map.of("RAILGUN_ADMIN_TOKEN_FILE", token.toString()), "--admin-token", "from-flag")
                .adminToken()).isEqualTo("from-flag");
    }

    @Test
    void aSecretGivenTwiceInOneSourceIsAConflict() throws IOException {
        Path token = file("admin.token", "t");
        ConfigException e = configError(Map.of("RAILGUN_ADMIN_TOKEN", "a", "RAILGUN_ADMIN_TOKEN_FILE",
                token.toString()));
        assertThat(e.code()).isEqualTo(ConfigException.CONFLICT);
        assertThat(e.getMessage()).contains("RAILGUN_ADMIN_TOKEN").contains("RAILGUN_ADMIN_TOKEN_FILE");
    }

    @Test
    void aMissingOrEmptySecretFileIsAnErrorThatDoesNotShowTheSecret() throws IOException {
        ConfigException missing = configError(Map.of(), "--admin-token-file", dir.resolve("none").toString());
        assertThat(missing.code()).isEqualTo(ConfigException.UNREADABLE_FILE);
        assertThat(missing.getMessage()).startsWith("--admin-token-file: ").contains("does not exist");

        Path empty = file("empty.token", "\n");
        assertThat(configError(Map.of(), "--admin-token-file", empty.toString()).getMessage()).contains("is empty");
    }

    @Test
    void aKeystorePasswordWithoutKeystoreIsAConflict() {
        ConfigException e = configError(Map.of("RAILGUN_TLS_KEYSTORE_PASSWORD", "changeit"));
        assertThat(e.code()).isEqualTo(ConfigException.CONFLICT);
        assertThat(e.getMessage()).contains("--tls-keystore").doesNotContain("changeit");
    }

    @Test
    void theDescribedConfigurationMasksEverySecret() throws IOException {
        Path keystore = file("https.p12", "x");
        ResolvedConfig r = ConfigLoader.resolve(new String[] {
            "--admin-token", "admin-secret-1", "--ingest-token", "ingest-secret-2",
            "--tls-keystore", keystore.toString(), "--tls-keystore-password", "keystore-secret-3",
            "--kafka-property", "sasl.jaas.config=ScramLoginModule required password=\"jaas-secret-4\";",
            "--kafka-property", "ssl.truststore.password=truststore-secret-5",
            "--kafka-property", "ssl.key.password=key-secret-6",
            "--kafka-property", "ssl.keystore.key=pem-secret-7",
            "--kafka-property", "sasl.oauthbearer.client.credentials.client.secret=oauth-secret-8",
            "--kafka-property", "security.protocol=SASL_SSL"}, Map.of());

        String described = r.describe();

        assertThat(described).doesNotContain("secret-").contains("admin-token            = ******")
                .contains("kafka-property.ssl.truststore.password = ******")
                .contains("kafka-property.security.protocol = SASL_SSL")
                .contains("ingest-token           = ******")
                .contains("tls-keystore-password  = ******");
        assertThat(r.config().adminToken()).isEqualTo("admin-secret-1");
    }

    @Test
    void anEmptyValueCountsAsNotSet() throws IOException {
        Path f = file("r.properties", "port=1234\n");
        var env = new HashMap<String, String>();
        env.put("RAILGUN_CONFIG", f.toString());
        env.put("RAILGUN_PORT", "");
        env.put("RAILGUN_KAFKA", " ");
        NodeConfig c = resolve(env);
        assertThat(c.port()).isEqualTo(1234);
        assertThat(c.kafka()).isNull();
    }

    @Test
    void aBrokerPortWithExternalKafkaIsIgnoredWithAWarning() {
        ResolvedConfig r = ConfigLoader.resolve(new String[] {"--kafka", "k:9092", "--broker-port", "9999"}, Map.of());
        assertThat(r.warnings()).singleElement().asString().contains("--broker-port is ignored");
        assertThat(ConfigLoader.resolve(new String[] {"--broker-port", "9999"}, Map.of()).warnings()).isEmpty();
    }

    @Test
    void aLeadingTildeIsTheHomeDirectory() {
        assertThat(resolve(Map.of("RAILGUN_DATA_DIR", "~/railgun-data")).dataDir())
                .isEqualTo(Path.of(System.getProperty("user.home"), "railgun-data"));
    }

    @Test
    void anUnknownFlagIsAConfigError() {
        assertThat(configError(Map.of(), "--prot", "1").getMessage()).contains("--prot");
    }
}
