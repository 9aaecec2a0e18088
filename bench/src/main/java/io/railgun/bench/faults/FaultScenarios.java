package io.railgun.bench.faults;

import java.util.ArrayList;
import java.util.List;

/**
 * The faults, each in a window of its own, injected while the {@link LoadGenerator} runs. The
 * generator stands for a load balancer: a node leaves its rotation when it is killed or stopped and
 * joins it once {@code /health/ready} answers 200. Each window lasts from the fault to
 * {@code settle} seconds after its repair. Times are printed relative to the start of the load.
 * Driver thread only.
 */
final class FaultScenarios {
    private static final int READY_TIMEOUT_S = 180;

    private final LocalCluster cluster;
    private final LoadGenerator load;
    private final FaultOptions options;
    private final long t0Ns;
    private final List<FaultWindow> windows = new ArrayList<>();

    FaultScenarios(LocalCluster cluster, LoadGenerator load, FaultOptions options, long t0Ns) {
        this.cluster = cluster;
        this.load = load;
        this.options = options;
        this.t0Ns = t0Ns;
    }

    List<FaultWindow> windows() {
        return List.copyOf(windows);
    }

    /** The load's first seconds, while the nodes' JIT compilers warm up; returns its window. */
    FaultWindow warmup() throws InterruptedException {
        long start = System.nanoTime();
        Thread.sleep(options.warmupS() * 1000L);
        FaultWindow w = new FaultWindow("warm-up", start, System.nanoTime());
        windows.add(w);
        return w;
    }

    void steady() throws InterruptedException {
        long start = System.nanoTime();
        Thread.sleep(options.steadyS() * 1000L);
        windows.add(new FaultWindow("steady", start, System.nanoTime()));
    }

    /** SIGKILL a node, leave it down, start it again (same id, port and data), wait until ready. */
    void killAndRestartNode(String id) throws Exception {
        long start = System.nanoTime();
        ManagedProcess node = cluster.node(id);
        load.removeTarget(id);
        long pid = node.pid();
        node.kill();
        log("SIGKILL %s (pid %d)", id, pid);
        Thread.sleep(options.downS() * 1000L);
        cluster.startNode(id);
        log("%s started again", id);
        cluster.awaitReady(id, READY_TIMEOUT_S);
        load.addTarget(id, cluster.nodeUri(id));
        log("%s ready, back in rotation", id);
        settle(id + " killed", start);
    }

    /** Start a new node, wait until ready, add it to the rotation. */
    void addNode(String id) throws Exception {
        long start = System.nanoTime();
        cluster.startNode(id);
        log("%s started (joins the cluster)", id);
        cluster.awaitReady(id, READY_TIMEOUT_S);
        load.addTarget(id, cluster.nodeUri(id));
        log("%s ready, in rotation", id);
        settle(id + " added", start);
    }

    /** Take a node out of the rotation and stop it with SIGTERM (a graceful leave). */
    void removeNode(String id) throws Exception {
        long start = System.nanoTime();
        load.removeTarget(id);
        ManagedProcess node = cluster.node(id);
        log("SIGTERM %s (pid %d)", id, node.pid());
        int exit = node.terminate(90);
        log("%s exited with %d", id, exit);
        settle(id + " removed", start);
    }

    /** SIGKILL a broker, leave it down, start it again (same id and data), wait until registered. */
    void killAndRestartBroker(int i) throws Exception {
        long start = System.nanoTime();
        ManagedProcess broker = cluster.broker(i);
        long pid = broker.pid();
        broker.kill();
        log("SIGKILL broker-%d (pid %d)", i, pid);
        Thread.sleep(options.downS() * 1000L);
        broker.start();
        log("broker-%d started again", i);
        cluster.awaitBrokers(cluster.brokerCount(), READY_TIMEOUT_S);
        log("broker-%d registered", i);
        settle("broker-" + i + " killed", start);
    }

    private void settle(String name, long start) throws InterruptedException {
        Thread.sleep(options.settleS() * 1000L);
        windows.add(new FaultWindow(name, start, System.nanoTime()));
        log("end of window '%s'", name);
    }

    void log(String format, Object... args) {
        System.out.printf("faults: +%6.1f s  %s%n", (System.nanoTime() - t0Ns) / 1e9, String.format(format, args));
    }
}
