package io.railgun.bench.faults;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * The brokers and nodes of one run, each a child process started through {@code ./railgun} with
 * its own data directory under the run's temporary directory and ports picked free at run time:
 * <ul>
 *   <li>brokers: {@code ./railgun broker --broker-id I --cluster-size N --base-port P --data-dir D}
 *       (broker I serves clients on {@code P + 10 (I - 1)}), or one {@code ./railgun broker --port P}
 *       when N = 1;</li>
 *   <li>nodes: {@code ./railgun start --node-id ID --kafka BOOTSTRAP --port PORT --data-dir D
 *       --replication R --processors 1}.</li>
 * </ul>
 * A node keeps its port and data directory across a restart. Used from the suite's driver thread;
 * {@link #close} (also from the shutdown hook) kills every child still alive.
 */
final class LocalCluster implements AutoCloseable {
    private static final String HOST = "127.0.0.1";

    private final Path railgun;
    private final Path dir;
    private final FaultOptions options;
    private final Map<String, String> env;
    private final Map<String, String> brokerEnv;
    private final List<ManagedProcess> brokers = new ArrayList<>();
    private final Map<String, ManagedProcess> nodes = new LinkedHashMap<>();
    private final Map<String, Integer> nodePorts = new LinkedHashMap<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private String bootstrap;

    LocalCluster(Path railgun, Path dir, FaultOptions options) {
        this.railgun = railgun;
        this.dir = dir;
        this.options = options;
        this.env = Map.of("RAILGUN_JAVA_OPTS", options.nodeJavaOpts());
        // Brokers get the C1 compiler only: a tenth of the JIT work at start on a 2-core machine that
        // also runs four nodes, and far more than enough for a few hundred records a second.
        this.brokerEnv = Map.of("RAILGUN_JAVA_OPTS", options.nodeJavaOpts() + " -XX:TieredStopAtLevel=1");
    }

    /** True when this checkout's {@code ./railgun broker} can form a multi-broker cluster. */
    static boolean brokerClusterSupported(Path railgun) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(railgun.toString(), "broker", "--help").redirectErrorStream(true).start();
        String help = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(60, TimeUnit.SECONDS);
        return help.contains("--cluster-size");
    }

    String bootstrap() {
        return bootstrap;
    }

    int brokerCount() {
        return brokers.size();
    }

    /** Starts every broker and waits until all of them are registered. */
    void startBrokers() throws IOException, InterruptedException {
        int n = options.brokers();
        List<String> addresses = new ArrayList<>();
        if (n == 1) {
            int port = freePort();
            brokers.add(new ManagedProcess("broker-1", List.of(railgun.toString(), "broker", "--port", String.valueOf(port),
                    "--data-dir", dir.resolve("broker-1").toString()), brokerEnv, dir.resolve("broker-1.log")));
            addresses.add(HOST + ":" + port);
        } else {
            int base = freePortRange(10 * (n - 1) + 2);
            for (int i = 1; i <= n; i++) {
                brokers.add(new ManagedProcess("broker-" + i, List.of(railgun.toString(), "broker", "--broker-id",
                        String.valueOf(i), "--cluster-size", String.valueOf(n), "--base-port", String.valueOf(base),
                        "--data-dir", dir.resolve("broker-" + i).toString()), brokerEnv, dir.resolve("broker-" + i + ".log")));
                addresses.add(HOST + ":" + (base + 10 * (i - 1)));
            }
        }
        bootstrap = String.join(",", addresses);
        for (ManagedProcess b : brokers) {
            b.start();
        }
        awaitBrokers(n, 120);
    }

    /** Waits until {@code expected} brokers are registered in the cluster's metadata. */
    void awaitBrokers(int expected, int timeoutS) throws InterruptedException {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000);
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
        try (Admin admin = Admin.create(p)) {
            while (true) {
                int seen = 0;
                try {
                    seen = admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size();
                } catch (Exception e) {
                    // not up yet
                }
                if (seen >= expected) {
                    return;
                }
                for (ManagedProcess b : brokers) {
                    if (!b.alive()) {
                        throw new IllegalStateException(b.name() + " exited; its log: " + b.log());
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(seen + " of " + expected + " brokers registered after " + timeoutS
                            + " s; logs in " + dir);
                }
                Thread.sleep(500);
            }
        }
    }

    ManagedProcess broker(int i) {
        return brokers.get(i - 1);
    }

    /** Starts a node (a new one, or again one that was stopped) without waiting for it. */
    void startNode(String id) throws IOException {
        ManagedProcess node = nodes.get(id);
        if (node == null) {
            int port = freePort();
            nodePorts.put(id, port);
            node = new ManagedProcess(id, List.of(railgun.toString(), "start", "--node-id", id, "--kafka", bootstrap,
                    "--port", String.valueOf(port), "--data-dir", dir.resolve(id).toString(), "--replication",
                    String.valueOf(options.replication()), "--processors", "1"), env, dir.resolve(id + ".log"));
            nodes.put(id, node);
        }
        node.start();
    }

    ManagedProcess node(String id) {
        return nodes.get(id);
    }

    URI nodeUri(String id) {
        return URI.create("http://" + HOST + ":" + nodePorts.get(id));
    }

    /** Waits until the node answers 200 on {@code /health/ready} (it serves every task it owns, caught up). */
    void awaitReady(String id, int timeoutS) throws InterruptedException {
        ManagedProcess node = nodes.get(id);
        HttpRequest ready = HttpRequest.newBuilder(nodeUri(id).resolve("/health/ready")).timeout(Duration.ofSeconds(3))
                .GET().build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
        while (System.nanoTime() < deadline) {
            if (!node.alive()) {
                throw new IllegalStateException(id + " exited; its log: " + node.log());
            }
            try {
                if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException(id + " not ready after " + timeoutS + " s; its log: " + node.log());
    }

    @Override
    public void close() {
        for (ManagedProcess n : nodes.values()) {
            n.close();
        }
        for (ManagedProcess b : brokers) {
            b.close();
        }
        http.close();
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return s.getLocalPort();
        }
    }

    /** A first port P such that P .. P + count - 1 are all free now. */
    static int freePortRange(int count) throws IOException {
        for (int attempt = 0; attempt < 200; attempt++) {
            int base = ThreadLocalRandom.current().nextInt(20_000, 60_000);
            if (rangeFree(base, count)) {
                return base;
            }
        }
        throw new IOException("no " + count + " consecutive free ports found");
    }

    private static boolean rangeFree(int base, int count) {
        for (int p = base; p < base + count; p++) {
            try (ServerSocket s = new ServerSocket(p, 1, InetAddress.getByName(HOST))) {
                s.setReuseAddress(true);
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
