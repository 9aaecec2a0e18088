package io.railgun.node.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.node.broker.BrokerCredentials;
import io.railgun.node.broker.ClusterLayout;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line surface: {@code --help} lists every command and every option with its default and
 * environment variable, errors are one line with the right exit code. No node or broker is started:
 * the launchers are fakes.
 */
class MainTest {
    /** The options of {@code start} the lead asked for, written out so that a renamed one fails here. */
    private static final List<String> START_OPTIONS = List.of("--host", "--port", "--data-dir", "--kafka",
            "--broker-port", "--node-id", "--processors", "--replication", "--ingest-token", "--ingest-token-file",
            "--admin-token", "--admin-token-file", "--tls-keystore", "--tls-keystore-password",
            "--tls-keystore-password-file", "--kafka-property", "--max-body-bytes", "--max-batch-events",
            "--request-timeout", "--checkpoint-interval", "--hot-keys", "--min-dedup-horizon", "--state-memory", "--config", "--help",
            "--version");

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final AtomicReference<Object> launched = new AtomicReference<>();
    private final AtomicReference<Map<String, String>> brokerOverrides = new AtomicReference<>();
    private final AtomicReference<ClusterLayout> brokerLayout = new AtomicReference<>();

    private int run(Map<String, String> env, String... args) {
        var cl = Main.commandLine(env,
                config -> {
                    launched.set(config);
                    throw new IllegalStateException("the fake node does not start");
                },
                (dataDir, layout, overrides) -> {
                    launched.set(dataDir);
                    brokerLayout.set(layout);
                    brokerOverrides.set(overrides);
                    throw new UncheckedIOException(new IOException("socket server failed",
                            new BindException("Address already in use")));
                });
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void helpListsEveryCommand() {
        assertThat(run(Map.of(), "--help")).isZero();
        assertThat(out.toString()).contains("Usage: railgun").containsPattern("(?m)^  start ")
                .containsPattern("(?m)^  broker ").containsPattern("(?m)^  help ");
    }

    @Test
    void startHelpListsEveryOptionWithItsDefaultAndVariable() {
        java.io.PrintStream stderr = System.err;
        java.io.ByteArrayOutputStream traces = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(traces, true)); // picocli's own warnings go there
        try {
            assertThat(run(Map.of(), "start", "--help")).isZero();
        } finally {
            System.setErr(stderr);
        }
        assertThat(traces.toString()).as("picocli's warnings (a '%%' in a description)").isEmpty();
        String help = out.toString().replaceAll("\\s+", " ");
        assertThat(help).contains("30% RocksDB"); // the text only: an unformatted description has it too, the check above catches that
        for (String option : START_OPTIONS) {
            assertThat(help).containsPattern("(^|[\\s,])" + Pattern.quote(option) + "([=\\s,]|$)");
        }
        for (Setting<?> s : StartSettings.ALL) {
            assertThat(help).contains(s.flag() + "=" + s.paramLabel())
                    .contains("Default: " + s.defaultDisplay() + ". Env: " + s.envVar() + ".");
            if (s.secret()) {
                assertThat(help).contains("--" + s.fileKey() + "=FILE").contains(s.fileEnvVar());
            }
        }
        assertThat(help).contains("Default: 127.0.0.1").contains("Default: 7070").contains("Default: ./data")
                .contains("Default: 10s").contains("Default: 1h").contains("Default: 16MiB")
                .contains("RAILGUN_KAFKA_PROPERTY_").contains("Precedence: flags > RAILGUN_* environment variables"
                        + " > --config file > defaults.");
    }

    @Test
    void brokerHelpListsItsOptions() {
        assertThat(run(Map.of(), "help", "broker")).isZero();
        String help = out.toString().replaceAll("\\s+", " ");
        assertThat(help).contains("--data-dir=DIR").contains("Default: ./data/broker. Env: RAILGUN_BROKER_DATA_DIR.")
                .contains("--port=PORT").contains("Default: 9092. Env: RAILGUN_BROKER_PORT.")
                .contains("--sasl[=true|false]").contains("Default: false. Env: RAILGUN_BROKER_SASL.");
    }

    @Test
    void versionNamesRailgunAndTheJvm() {
        assertThat(run(Map.of(), "--version")).isZero();
        assertThat(out.toString()).startsWith("railgun ").contains("JVM " + Runtime.version());
    }

    @Test
    void noCommandIsAUsageError() {
        assertThat(run(Map.of())).isEqualTo(2);
        assertThat(err.toString()).startsWith("railgun: missing command: start, broker, streams, metrics, send, read, cluster\n").contains("Commands:");
    }

    @Test
    void aBadValueIsOneLineWithExitCode2AndNothingStarts() {
        assertThat(run(Map.of(), "start", "--port", "seventy")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("railgun start: --port: 'seventy' is not a port number (0-65535)\n");
        assertThat(launched.get()).isNull();
    }

    @Test
    void anUnknownVariableStopsTheStart() {
        assertThat(run(Map.of("RAILGUN_ADMIN_TOKN", "x"), "start")).isEqualTo(2);
        assertThat(err.toString()).startsWith("railgun start: unknown environment variable 'RAILGUN_ADMIN_TOKN'"
                + " (did you mean 'RAILGUN_ADMIN_TOKEN'?)").doesNotContain("Exception").hasLineCount(1);
    }

    @Test
    void anUnknownOptionIsAUsageErrorWithASuggestion() {
        assertThat(run(Map.of(), "start", "--data-dri", "x")).isEqualTo(2);
        assertThat(err.toString()).contains("Unknown option").contains("--data-dir")
                .contains("Run 'railgun start --help'");
    }

    @Test
    void aNodeThatCannotStartIsOneLineWithExitCode1() {
        int code = run(Map.of(), "start", "--data-dir", dir.resolve("data").toString(), "--port", "0");
        assertThat(code).isEqualTo(1);
        assertThat(err.toString()).isEqualTo("railgun start: cannot start the node: the fake node does not start\n");
        assertThat(launched.get()).isNotNull();
    }

    @Test
    void aPortInUseFailsBeforeTheNodeStarts() throws IOException {
        try (var taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int code = run(Map.of("RAILGUN_DATA_DIR", dir.toString()), "start", "--port",
                    String.valueOf(taken.getLocalPort()));
            assertThat(code).isEqualTo(1);
            assertThat(err.toString()).startsWith("railgun start: cannot listen on 127.0.0.1:" + taken.getLocalPort())
                    .contains("--port").hasLineCount(1);
            assertThat(launched.get()).isNull();
        }
    }

    @Test
    void aDataDirThatIsAFileFailsBeforeTheNodeStarts() throws IOException {
        Path file = Files.writeString(dir.resolve("occupied"), "x");
        assertThat(run(Map.of(), "start", "--data-dir", file.toString(), "--port", "0")).isEqualTo(1);
        assertThat(err.toString()).startsWith("railgun start: cannot create the data directory").hasLineCount(1);
    }

    @Test
    void aMissingKeystoreFailsBeforeTheNodeStarts() {
        int code = run(Map.of(), "start", "--data-dir", dir.toString(), "--port", "0",
                "--tls-keystore", dir.resolve("missing.p12").toString());
        assertThat(code).isEqualTo(1);
        assertThat(err.toString()).contains("is not a readable file (--tls-keystore)");
    }

    @Test
    void aBrokerThatCannotStartIsOneLineWithAHint() {
        int code = run(Map.of("RAILGUN_BROKER_DATA_DIR", dir.resolve("b").toString()), "broker", "--port", "0");
        assertThat(code).isEqualTo(1);
        assertThat(err.toString()).isEqualTo("railgun broker: cannot start the broker: socket server failed:"
                + " Address already in use (another process holds a port: choose another with --port,"
                + " 0 picks a free one)\n");
        assertThat(launched.get()).isEqualTo(dir.resolve("b"));
    }

    @Test
    void brokerSaslGeneratesCredentialsOnceAndSecuresBothListeners() throws IOException {
        Path data = dir.resolve("sasl");
        assertThat(run(Map.of(), "broker", "--data-dir", data.toString(), "--port", "0")).isEqualTo(1);
        assertThat(brokerOverrides.get()).as("without --sasl").isEmpty();

        assertThat(run(Map.of(), "broker", "--data-dir", data.toString(), "--port", "0", "--sasl")).isEqualTo(1);
        Map<String, String> secured = brokerOverrides.get();
        assertThat(secured).containsEntry("listener.security.protocol.map", "CLIENT:SASL_PLAINTEXT,CONTROLLER:SASL_PLAINTEXT")
                .containsEntry("sasl.enabled.mechanisms", "PLAIN");
        Path file = data.resolve(BrokerCredentials.FILE);
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        BrokerCredentials credentials = BrokerCredentials.loadOrCreate(data);
        // the same credentials at the next start, also from the environment
        assertThat(run(Map.of("RAILGUN_BROKER_SASL", "true"), "broker", "--data-dir", data.toString(), "--port", "0"))
                .isEqualTo(1);
        assertThat(brokerOverrides.get()).isEqualTo(secured).isEqualTo(credentials.brokerOverrides());
        assertThat(run(Map.of(), "broker", "--sasl=maybe")).isEqualTo(2);
        assertThat(err.toString()).contains("--sasl").contains("not true or false");

        String flags = BrokerCommand.nodeFlags("127.0.0.1:9092", credentials);
        assertThat(flags).contains(file.toAbsolutePath().toString())
                .contains("./railgun start --kafka 127.0.0.1:9092")
                .contains("--kafka-property 'security.protocol=SASL_PLAINTEXT'")
                .contains("--kafka-property 'sasl.mechanism=PLAIN'")
                .contains("--kafka-property 'sasl.jaas.config=" + credentials.clientProperties().get("sasl.jaas.config") + "'");
    }

    @Test
    void aBrokerOfAClusterTakesItsPortsFromTheBaseAndSaysHowNodesJoin() {
        Path data = dir.resolve("b2");
        int code = run(Map.of("RAILGUN_BROKER_CLUSTER_SIZE", "3"), "broker", "--broker-id", "2", "--base-port", "29092",
                "--data-dir", data.toString());
        assertThat(code).as(err.toString()).isEqualTo(1); // the fake launcher fails
        ClusterLayout layout = brokerLayout.get();
        assertThat(layout.brokerId()).isEqualTo(2);
        assertThat(layout.clientPort()).isEqualTo(29102);
        assertThat(layout.controllerPort()).isEqualTo(29103);
        assertThat(layout.bootstrapServers()).isEqualTo("127.0.0.1:29092,127.0.0.1:29102,127.0.0.1:29112");
        assertThat(launched.get()).isEqualTo(data);
        assertThat(out.toString()).startsWith("Kafka broker 2 of 3 (KRaft, cluster " + layout.clusterId()
                + ") starting on 127.0.0.1:29102, controller on port 29103");
        assertThat(err.toString()).contains("choose another with --base-port");

        run(Map.of(), "broker", "--broker-id", "1", "--voters", "1@127.0.0.1:29093,2@127.0.0.1:29103",
                "--data-dir", data.toString());
        assertThat(brokerLayout.get().clientPort()).isEqualTo(29092);
        assertThat(brokerLayout.get().size()).isEqualTo(2);
    }

    @Test
    void clusterOptionsThatConflictOrMissAreOneLineAndExitCode2() {
        assertThat(run(Map.of(), "broker", "--cluster-size", "3")).isEqualTo(2);
        assertThat(err.toString()).contains("--cluster-size is for a broker of a cluster: add --broker-id I");
        assertThat(run(Map.of(), "broker", "--broker-id", "1")).isEqualTo(2);
        assertThat(err.toString()).contains("--broker-id needs the number of brokers: add --cluster-size N");
        assertThat(run(Map.of(), "broker", "--broker-id", "4", "--cluster-size", "3")).isEqualTo(2);
        assertThat(err.toString()).contains("--broker-id must be 1 to 3");
        assertThat(run(Map.of(), "broker", "--broker-id", "1", "--cluster-size", "3", "--port", "9092")).isEqualTo(2);
        assertThat(err.toString()).contains("--port is for a single broker; a cluster's ports follow --base-port");
        assertThat(run(Map.of(), "broker", "--broker-id", "1", "--cluster-size", "3", "--voters", "1@h:9093")).isEqualTo(2);
        assertThat(err.toString()).contains("--cluster-size and --voters both place the brokers");
        assertThat(run(Map.of(), "broker", "--broker-id", "1", "--voters", "1@h")).isEqualTo(2);
        assertThat(err.toString()).contains("--voters entry '1@h' is not id@host:port");
        assertThat(run(Map.of(), "broker", "--broker-id", "1", "--cluster-size", "3", "--host", "0.0.0.0")).isEqualTo(2);
        assertThat(err.toString()).contains("--host 0.0.0.0: a broker advertises this address");
        assertThat(brokerLayout.get()).as("nothing was started").isNull();
    }

    @Test
    void theBrokersOfAClusterShareOneSaslUserKeptBesideTheirDataDirectories() throws IOException {
        run(Map.of(), "broker", "--broker-id", "1", "--cluster-size", "3", "--base-port", "29092", "--sasl",
                "--data-dir", dir.resolve("cluster").resolve("broker-1").toString());
        Map<String, String> first = brokerOverrides.get();
        run(Map.of(), "broker", "--broker-id", "2", "--cluster-size", "3", "--base-port", "29092", "--sasl",
                "--data-dir", dir.resolve("cluster").resolve("broker-2").toString());
        assertThat(brokerOverrides.get()).isEqualTo(first)
                .isEqualTo(BrokerCredentials.loadOrCreate(dir.resolve("cluster")).brokerOverrides());
        assertThat(dir.resolve("cluster").resolve("broker-1").resolve(BrokerCredentials.FILE)).doesNotExist();
        for (String file : List.of(BrokerCredentials.FILE, BrokerCredentials.FILE + ".lock")) {
            assertThat(java.nio.file.attribute.PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(dir.resolve("cluster").resolve(file)))).as(file).isEqualTo("rw-------");
        }
    }

    @Test
    void theBrokerReadsItsOwnVariablesAndRejectsTypos() {
        assertThat(run(Map.of("RAILGUN_BROKER_PROT", "1"), "broker")).isEqualTo(2);
        assertThat(err.toString()).contains("did you mean 'RAILGUN_BROKER_PORT'?");
    }

    @Test
    void theConfigurationDocumentNamesEverySetting() throws IOException {
        Path doc = Path.of("..", "docs", "configuration.md");
        Assumptions.assumeTrue(Files.exists(doc), "run from the node module of the repository");
        String text = Files.readString(doc);
        for (Setting<?> s : StartSettings.ALL) {
            String shownDefault = s == StartSettings.PROCESSORS ? "the machine's cores but one (at least 1)"
                    : s == StartSettings.MAX_CONNECTIONS ? "half the file descriptor limit, 64 to 10000"
                    : s.defaultDisplay();
            assertThat(text).as("docs/configuration.md").contains("`" + s.flag()).contains(s.envVar())
                    .contains(shownDefault);
        }
        for (Setting<?> s : BrokerSettings.ALL) {
            assertThat(text).contains(s.envVar()).contains(s.defaultDisplay());
        }
        assertThat(text).contains("RAILGUN_JAVA_OPTS").contains("RAILGUN_CONFIG").contains("kafka-property.");
    }
}
