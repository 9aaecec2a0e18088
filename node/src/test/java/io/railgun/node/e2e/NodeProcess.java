package io.railgun.node.e2e;

import io.railgun.client.RailgunClient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;

/**
 * A Railgun node run as a child JVM ({@code io.railgun.node.cli.Main start}) on fixed ports and one
 * data directory, so every incarnation has the same address and state: the java binary of the
 * running JVM, the test's class path, {@code --enable-native-access=ALL-UNNAMED}. Each incarnation
 * writes its stdout and stderr to {@code run-<n>.log} beside the data directory.
 *
 * <p>{@link #terminate} sends SIGTERM ({@link Process#destroy()}), {@link #kill} SIGKILL
 * ({@link Process#destroyForcibly()}): the embedded broker runs inside the child, so it dies too.
 * Used by the test's main thread only.
 */
final class NodeProcess implements AutoCloseable {
    /** What one stop did: the exit code and how long the process took to be gone. */
    record Exit(int code, long millis) {}

    private final Path home;
    private final Path dataDir;
    private final int httpPort;
    private final int brokerPort;
    private final List<String> nodeFlags;
    private final Path nativeLibraries;
    private final Path logbackConfig;
    private Process process;
    private Path log;
    private long startedNanos;
    private int runs;

    /**
     * @param home      a fresh directory for the data directory, logs and the child's temporary files
     * @param nodeFlags flags of {@code start} beyond the data directory and ports
     */
    NodeProcess(Path home, int httpPort, int brokerPort, List<String> nodeFlags) throws IOException {
        this.home = home;
        this.dataDir = home.resolve("data");
        this.httpPort = httpPort;
        this.brokerPort = brokerPort;
        this.nodeFlags = List.copyOf(nodeFlags);
        Files.createDirectories(home.resolve("tmp"));
        this.nativeLibraries = extractRocksDb(home.resolve("lib"));
        this.logbackConfig = home.resolve("logback.xml");
        // the test class path has logback-test.xml (warnings only): the child logs its restores at INFO
        Files.writeString(logbackConfig, """
                <configuration>
                  <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
                    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{0} - %msg%n</pattern></encoder>
                  </appender>
                  <logger name="io.railgun" level="INFO"/>
                  <logger name="org.apache.kafka" level="WARN"/>
                  <logger name="kafka" level="WARN"/>
                  <logger name="state.change.logger" level="WARN"/>
                  <root level="WARN"><appender-ref ref="OUT"/></root>
                </configuration>
                """);
    }

    String baseUri() {
        return "http://127.0.0.1:" + httpPort;
    }

    /** Starts a new incarnation; the previous one must be gone. */
    void start() throws IOException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("the previous node process is still running");
        }
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(List.of(java, "-Xmx768m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-XX:+ExitOnOutOfMemoryError", "--enable-native-access=ALL-UNNAMED", "-Djava.io.tmpdir=" + home.resolve("tmp"),
                "-Dlogback.configurationFile=" + logbackConfig));
        if (nativeLibraries != null) {
            command.add("-Djava.library.path=" + nativeLibraries);
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.railgun.node.cli.Main", "start",
                "--data-dir", dataDir.toString(), "--port", Integer.toString(httpPort), "--broker-port",
                Integer.toString(brokerPort)));
        command.addAll(nodeFlags);
        log = home.resolve("run-" + runs++ + ".log");
        startedNanos = System.nanoTime();
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** When the current incarnation was started ({@link System#nanoTime()}). */
    long startedNanos() {
        return startedNanos;
    }

    long pid() {
        return process.pid();
    }

    /**
     * Polls {@code GET /health} until it answers 2xx.
     *
     * @return milliseconds from {@link #start()} to the first healthy answer
     * @throws AssertionError when the process exits first or {@code timeoutMs} passes
     */
    long awaitHealthy(RailgunClient client, long timeoutMs) throws InterruptedException {
        long deadline = startedNanos + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (true) {
            if (!process.isAlive()) {
                throw new AssertionError("node process " + process.pid() + " exited with " + process.exitValue()
                        + " before serving\n" + tail(80));
            }
            if (client.health()) {
                return (System.nanoTime() - startedNanos) / 1_000_000;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("node process " + process.pid() + " did not answer GET /health within " + timeoutMs
                        + " ms of its start\n" + threadDump() + tail(80));
            }
            Thread.sleep(50);
        }
    }

    /**
     * SIGTERM and waits for the exit.
     *
     * @throws AssertionError when the process is still running after {@code timeoutMs} (it is then killed)
     */
    Exit terminate(long timeoutMs) throws InterruptedException {
        long t0 = System.nanoTime();
        process.destroy();
        if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
            String dump = threadDump();
            process.destroyForcibly().waitFor();
            throw new AssertionError("node process " + process.pid() + " was still running " + timeoutMs
                    + " ms after SIGTERM; its threads then:\n" + dump + tail(80));
        }
        return new Exit(process.exitValue(), (System.nanoTime() - t0) / 1_000_000);
    }

    /** SIGKILL and waits for the exit. */
    Exit kill() throws InterruptedException {
        long t0 = System.nanoTime();
        process.destroyForcibly();
        process.waitFor();
        return new Exit(process.exitValue(), (System.nanoTime() - t0) / 1_000_000);
    }

    /** The current incarnation's log. */
    Path log() {
        return log;
    }

    /** The last {@code lines} lines of the current incarnation's output. */
    String tail(int lines) {
        return tail(log, lines);
    }

    static String tail(Path file, int lines) {
        if (file == null || !Files.exists(file)) {
            return "(no log)\n";
        }
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            List<String> last = all.subList(Math.max(0, all.size() - lines), all.size());
            return "---- last " + last.size() + " lines of " + file + " ----\n" + String.join("\n", last) + "\n---- end ----\n";
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e + ")\n";
        }
    }

    /** {@code jcmd <pid> Thread.print} of the running child, for a node that hangs. */
    private String threadDump() {
        if (process == null || !process.isAlive()) {
            return "";
        }
        Path jcmd = Path.of(ProcessHandle.current().info().command().orElse("java")).resolveSibling("jcmd");
        try {
            Process p = new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), "Thread.print")
                    .redirectErrorStream(true).start();
            byte[] out;
            try (InputStream in = p.getInputStream()) {
                out = in.readAllBytes();
            }
            p.waitFor(20, TimeUnit.SECONDS);
            Path file = home.resolve("threads-" + process.pid() + ".txt");
            Files.write(file, out);
            String text = new String(out, StandardCharsets.UTF_8);
            return "---- threads of " + process.pid() + " (also in " + file + ") ----\n"
                    + (text.length() > 30_000 ? text.substring(0, 30_000) + "\n..." : text) + "\n";
        } catch (IOException | InterruptedException e) {
            return "(no thread dump: " + e + ")\n";
        }
    }

    /** Kills the current incarnation if it still runs. */
    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            try {
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * RocksDB's JNI library, extracted once for every incarnation (as {@code CrashRecoveryTest} does):
     * otherwise each one copies it to its temporary directory at start-up. Null when not found.
     */
    private static Path extractRocksDb(Path dir) throws IOException {
        String name = Environment.getJniLibraryFileName("rocksdb");
        try (InputStream in = RocksDB.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                return null;
            }
            Files.createDirectories(dir);
            Files.copy(in, dir.resolve(name));
            return dir;
        }
    }
}
