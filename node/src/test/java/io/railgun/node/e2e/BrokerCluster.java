package io.railgun.node.e2e;

import io.railgun.node.broker.ClusterLayout;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A KRaft cluster of {@code size} brokers, each a child JVM running {@code io.railgun.node.cli.Main
 * broker --broker-id I --cluster-size N --base-port P} (what {@code ./railgun broker} runs), on a base
 * port picked free at runtime, each with its data directory and log ({@code broker-<I>/run-<n>.log})
 * under {@code home}. {@link #kill} is SIGKILL, {@link #start(int)} starts a broker again on the same
 * ports and data. Used by the test's main thread only; {@link #close()} kills whatever still runs.
 */
final class BrokerCluster implements AutoCloseable {
    private static final String LISTENING = "listening on";

    private final Path home;
    private final int size;
    private final int basePort;
    private final Process[] processes;
    private final Path[] logs;
    private final int[] runs;

    BrokerCluster(Path home, int size) throws IOException {
        this.home = home;
        this.size = size;
        this.basePort = freeBasePort(size);
        this.processes = new Process[size + 1];
        this.logs = new Path[size + 1];
        this.runs = new int[size + 1];
        Files.createDirectories(home);
    }

    /** Every broker's client listener, for {@code --kafka}. */
    String bootstrapServers() {
        return ClusterLayout.local(1, size, basePort, ClusterLayout.LOCAL_HOST, null).bootstrapServers();
    }

    int basePort() {
        return basePort;
    }

    /** Starts every broker, then waits until each says it listens. */
    void startAll(long timeoutMs) throws IOException, InterruptedException {
        for (int id = 1; id <= size; id++) {
            start(id);
        }
        for (int id = 1; id <= size; id++) {
            awaitListening(id, timeoutMs);
        }
    }

    /** Starts broker {@code id} (1-based); its previous incarnation must be gone. */
    void start(int id) throws IOException {
        if (processes[id] != null && processes[id].isAlive()) {
            throw new IllegalStateException("broker " + id + " still runs");
        }
        Path dir = home.resolve("broker-" + id);
        Files.createDirectories(dir.resolve("tmp"));
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(List.of(java, "-Xmx320m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-XX:+ExitOnOutOfMemoryError", "--enable-native-access=ALL-UNNAMED", "-Djava.io.tmpdir=" + dir.resolve("tmp"),
                "-cp", System.getProperty("java.class.path"), "io.railgun.node.cli.Main", "broker",
                "--broker-id", Integer.toString(id), "--cluster-size", Integer.toString(size),
                "--base-port", Integer.toString(basePort), "--data-dir", dir.resolve("data").toString()));
        logs[id] = dir.resolve("run-" + runs[id]++ + ".log");
        processes[id] = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(logs[id].toFile()).start();
    }

    /** Waits until broker {@code id}'s current incarnation prints that it listens. */
    void awaitListening(int id, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!log(id).contains(LISTENING)) {
            if (!processes[id].isAlive()) {
                throw new AssertionError("broker " + id + " exited with " + processes[id].exitValue() + "\n" + tail(id));
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("broker " + id + " did not listen within " + timeoutMs + " ms\n" + tail(id));
            }
            Thread.sleep(100);
        }
    }

    /** SIGKILL to broker {@code id}, and waits until it is gone. */
    void kill(int id) throws InterruptedException {
        processes[id].destroyForcibly();
        processes[id].waitFor();
    }

    /** The current incarnation's output of broker {@code id}. */
    String log(int id) {
        try {
            return Files.readString(logs[id], StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    String tail(int id) {
        return NodeProcess.tail(logs[id], 60);
    }

    @Override
    public void close() throws InterruptedException {
        for (int id = 1; id <= size; id++) {
            if (processes[id] != null && processes[id].isAlive()) {
                processes[id].destroyForcibly();
            }
        }
        for (int id = 1; id <= size; id++) {
            if (processes[id] != null) {
                processes[id].waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    /** A base port whose 2 ports per broker are all free now (racy, as any free-port pick). */
    private static int freeBasePort(int size) throws IOException {
        int span = ClusterLayout.PORT_STRIDE * size;
        for (int attempt = 0; attempt < 50; attempt++) {
            int base = ThreadLocalRandom.current().nextInt(20_000, 60_000 - span);
            if (allFree(base, size)) {
                return base;
            }
        }
        throw new IOException("no free base port for " + size + " brokers found");
    }

    private static boolean allFree(int base, int size) {
        for (int id = 1; id <= size; id++) {
            int client = base + ClusterLayout.PORT_STRIDE * (id - 1);
            for (int port : new int[] {client, client + 1}) {
                try (ServerSocket socket = new ServerSocket()) {
                    socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
                } catch (IOException e) {
                    return false;
                }
            }
        }
        return true;
    }
}
