package io.railgun.node.broker;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The broker properties Railgun sets for an {@link EmbeddedBroker} (key = value: why), applied
 * before the caller's overrides:
 * <ul>
 *   <li>{@code process.roles=broker,controller}, {@code node.id=1} (a cluster: the broker's id):
 *       one process is the cluster, or one broker and one voter of it.</li>
 *   <li>{@code offsets.topic.replication.factor}, {@code transaction.state.log.replication.factor},
 *       {@code share.coordinator.state.topic.replication.factor} {@code =1} and the matching
 *       {@code *.min.isr=1}: the defaults (3 copies, 2 in sync) cannot be met by one broker, so
 *       consumer groups, transactions and share groups would never find their coordinator.
 *       {@code min.insync.replicas=1} and {@code default.replication.factor=1} are the defaults,
 *       pinned because {@code acks=all} producers and topic creation rely on them. In a cluster the
 *       copies are {@link ClusterLayout#internalReplication()} (3, or every broker of a smaller
 *       cluster) and the in-sync minimums {@link ClusterLayout#minInsyncReplicas()} (2 with 3
 *       copies): one broker may die without losing an acknowledged write or stopping writes.</li>
 *   <li>{@code offsets.topic.num.partitions}, {@code transaction.state.log.num.partitions},
 *       {@code share.coordinator.state.topic.num.partitions} {@code =5} (default 50): one node
 *       needs no coordinator spread; fewer partitions make the first group join (which creates
 *       {@code __consumer_offsets}) fast and keep file handles and index mappings few.</li>
 *   <li>{@code group.initial.rebalance.delay.ms=0}: no 3 s wait before the first rebalance of a
 *       new group; there are no other members to wait for.</li>
 *   <li>{@code auto.create.topics.enable=false}: Railgun creates its topics explicitly with the
 *       partition counts it needs; a typo must fail, not create a topic.</li>
 *   <li>{@code num.network.threads=1} (3), {@code num.io.threads=2} (8),
 *       {@code background.threads=2} (10), {@code group.coordinator.threads=1} (4),
 *       {@code group.coordinator.background.threads=1} (2),
 *       {@code num.recovery.threads.per.data.dir=1} (2): sized for a node that shares a small
 *       machine with the engine and serves a handful of local clients: the node's own producers
 *       and consumers hold a few connections, and fewer threads mean fewer hand-offs on 2 cores
 *       (with 1 network and 2 request threads, and producers lingering 2 ms, the broker took 17% of
 *       a core at 5,000 ev/s, against 48% with 2 and 4 threads and no linger).</li>
 *   <li>{@code log.cleaner.dedupe.buffer.size=16 MiB} (128 MiB, allocated on the heap when the
 *       cleaner of compacted topics such as {@code __consumer_offsets} starts): enough for
 *       ~600,000 distinct keys per cleaning pass.</li>
 * </ul>
 *
 *
 * <p>Stateless; called by {@link EmbeddedBroker#start} on the starting thread.
 */
final class BrokerSettings {
    private BrokerSettings() {}

    /** The properties of broker {@code layout.brokerId()} with these ports and quorum, overrides not yet applied. */
    static Map<String, String> of(Path logDir, ClusterLayout layout, int clientPort, int controllerPort,
            String voters) {
        String host = layout.host();
        Map<String, String> p = new LinkedHashMap<>();
        p.put("process.roles", "broker,controller");
        p.put("node.id", Integer.toString(layout.brokerId()));
        p.put("controller.quorum.voters", voters);
        p.put("listeners", EmbeddedBroker.CLIENT_LISTENER + "://" + host + ":" + clientPort + ","
                + EmbeddedBroker.CONTROLLER_LISTENER + "://" + host + ":" + controllerPort);
        p.put("listener.security.protocol.map", EmbeddedBroker.CLIENT_LISTENER + ":PLAINTEXT," + EmbeddedBroker.CONTROLLER_LISTENER + ":PLAINTEXT");
        p.put("controller.listener.names", EmbeddedBroker.CONTROLLER_LISTENER);
        p.put("inter.broker.listener.name", EmbeddedBroker.CLIENT_LISTENER);
        p.put("log.dirs", logDir.toString());

        String copies = Integer.toString(layout.internalReplication());
        String inSync = Integer.toString(layout.minInsyncReplicas());
        p.put("offsets.topic.replication.factor", copies);
        p.put("offsets.topic.num.partitions", "5");
        p.put("transaction.state.log.replication.factor", copies);
        p.put("transaction.state.log.min.isr", inSync);
        p.put("transaction.state.log.num.partitions", "5");
        p.put("share.coordinator.state.topic.replication.factor", copies);
        p.put("share.coordinator.state.topic.min.isr", inSync);
        p.put("share.coordinator.state.topic.num.partitions", "5");
        p.put("default.replication.factor", copies);
        p.put("min.insync.replicas", inSync);
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("auto.create.topics.enable", "false");
        // after a kill, the restarted broker's registration waits for its old session to time out
        // (9 s by default): a single node has no one to fail over to, so a short session is enough;
        // in a cluster, a dead broker is fenced (and leaves the ISRs) after 3 s instead of 9
        p.put("broker.session.timeout.ms", "3000");
        p.put("broker.heartbeat.interval.ms", "1000");

        p.put("num.network.threads", "1");
        p.put("num.io.threads", "2");
        p.put("background.threads", "2");
        p.put("group.coordinator.threads", "1");
        p.put("group.coordinator.background.threads", "1");
        p.put("num.recovery.threads.per.data.dir", "1");
        p.put("log.cleaner.dedupe.buffer.size", Integer.toString(16 * 1024 * 1024));
        return p;
    }
}
