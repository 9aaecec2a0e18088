package io.railgun.node.assignment;

import java.util.List;
import java.util.Map;

/**
 * What the plan gives one member: the tasks it runs as active, those it runs as replica, and, for
 * each assigned task it does not hold, the nodes that hold a copy (their internal URLs, best first:
 * the most recent checkpoint), from which it recovers the task's files.
 */
public record MemberAssignment(List<TaskId> actives, List<TaskId> replicas, Map<TaskId, List<PeerCopy>> sources) {
    public MemberAssignment {
        actives = List.copyOf(actives);
        replicas = List.copyOf(replicas);
        sources = Map.copyOf(sources);
    }

    /** A copy of a task on another node, to recover from. */
    public record PeerCopy(String nodeId, String nodeUrl, CopyRole role, long checkpointOffset) {}
}
