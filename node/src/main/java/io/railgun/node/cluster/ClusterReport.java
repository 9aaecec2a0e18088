package io.railgun.node.cluster;

import io.railgun.node.assignment.CopyRole;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The cluster as {@code GET /v1/cluster} shows it: the nodes, and for every task the copy that is
 * active and its replicas and stale copies, each with the node holding it. Built from the nodes'
 * latest {@link NodeStatus} records; an immutable value.
 *
 * <p>A node whose last status is older than the view's threshold is unreachable: it is listed, and
 * its copies are shown with {@code reachable} false (they are what it last said). While a task moves,
 * two nodes may briefly both say they run it as active: the reachable one with the latest status is
 * shown as active, the other is left out until it reports again.
 *
 * @param generatedMs when the report was made (ms since the epoch)
 * @param nodes       by node id
 * @param tasks       by stream, partitioner, partition
 */
public record ClusterReport(long generatedMs, List<NodeRow> nodes, List<TaskRow> tasks) {
    public ClusterReport {
        nodes = List.copyOf(nodes);
        tasks = List.copyOf(tasks);
    }

    /**
     * A node.
     *
     * @param lastSeenMs when it wrote its last status (its clock)
     * @param reachable  false when that is older than the view's threshold
     * @param copies     task copies it holds
     */
    public record NodeRow(String nodeId, String apiUrl, long startedMs, long lastSeenMs, boolean reachable, int units,
            int copies) {}

    /** A task: its active copy (null when no node says it runs it) and its other copies. */
    public record TaskRow(String stream, String partitioner, int partition, CopyRow active, List<CopyRow> replicas,
            List<CopyRow> stale) {
        public TaskRow {
            replicas = List.copyOf(replicas);
            stale = List.copyOf(stale);
        }

        /** {@code stream/partitioner-partition}. */
        public String task() {
            return stream + "/" + partitioner + "-" + partition;
        }
    }

    /** A copy of a task on a node (the figures of {@link CopyStatus}). */
    public record CopyRow(String nodeId, boolean reachable, long lag, long checkpointOffset, long checkpointAgeMs,
            long recoveryBytesDone, long recoveryBytesTotal) {
        /** Whether it is being recovered from a peer. */
        public boolean recovering() {
            return recoveryBytesDone >= 0;
        }
    }

    /** The report of these statuses at {@code nowMs}. */
    public static ClusterReport of(Collection<NodeStatus> statuses, long nowMs, long unreachableAfterMs) {
        List<NodeStatus> byId = new ArrayList<>(statuses);
        byId.sort(Comparator.comparing(NodeStatus::nodeId));
        List<NodeRow> nodes = new ArrayList<>();
        // task -> copies, with the status they came from (the latest status wins an active tie)
        Map<String, Builder> tasks = new TreeMap<>();
        for (NodeStatus s : byId) {
            boolean reachable = nowMs - s.publishedMs() <= unreachableAfterMs;
            nodes.add(new NodeRow(s.nodeId(), s.apiUrl(), s.startedMs(), s.publishedMs(), reachable, s.units(),
                    s.copies().size()));
            for (CopyStatus c : s.copies()) {
                String key = c.stream() + "\u0000" + c.partitioner() + "\u0000" + String.format("%010d", c.partition());
                tasks.computeIfAbsent(key, k -> new Builder(c)).add(s, reachable, c);
            }
        }
        List<TaskRow> rows = new ArrayList<>(tasks.size());
        tasks.values().forEach(b -> rows.add(b.build()));
        return new ClusterReport(nowMs, nodes, rows);
    }

    private static final class Builder {
        final CopyStatus first;
        CopyRow active;
        boolean activeReachable;
        long activePublishedMs = Long.MIN_VALUE;
        final List<CopyRow> replicas = new ArrayList<>();
        final List<CopyRow> stale = new ArrayList<>();

        Builder(CopyStatus first) {
            this.first = first;
        }

        void add(NodeStatus node, boolean reachable, CopyStatus c) {
            CopyRow row = new CopyRow(node.nodeId(), reachable, c.lag(), c.checkpointOffset(), c.checkpointAgeMs(),
                    c.recoveryBytesDone(), c.recoveryBytesTotal());
            if (c.role() == CopyRole.ACTIVE) {
                boolean better = active == null || reachable && !activeReachable
                        || reachable == activeReachable && node.publishedMs() > activePublishedMs;
                if (better) {
                    active = row;
                    activeReachable = reachable;
                    activePublishedMs = node.publishedMs();
                }
            } else if (c.role() == CopyRole.REPLICA) {
                replicas.add(row);
            } else {
                stale.add(row);
            }
        }

        TaskRow build() {
            return new TaskRow(first.stream(), first.partitioner(), first.partition(), active, replicas, stale);
        }
    }
}
