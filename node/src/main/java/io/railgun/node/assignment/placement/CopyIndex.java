package io.railgun.node.assignment.placement;

import io.railgun.node.assignment.CopyRole;
import io.railgun.node.assignment.HeldCopy;
import io.railgun.node.assignment.MemberAssignment.PeerCopy;
import io.railgun.node.assignment.MemberInfo;
import io.railgun.node.assignment.TaskId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Who holds which copy of which task, as the members advertised it, and how good a candidate each
 * member is for a task (its {@link #tier}). Members are indexed in a fixed order (node id, unit,
 * member id), never the order they were given in. Files live per node ({@code data/tasks}), so a
 * copy held by one unit of a node is on the disk of all its units.
 *
 * <p>Not thread-safe: built and read by the thread computing one plan.
 */
final class CopyIndex {
    /** The member itself runs the task in the role being placed (active for actives, replica for replicas). */
    static final int TIER_KEEP = 0;
    /** The member itself runs the task in the other live role (a replica promoted, an active demoted). */
    static final int TIER_OTHER_ROLE = 1;
    /** Another unit of the member's node runs the task: its files are on this node's disk. */
    static final int TIER_NODE_LIVE = 2;
    /** The member's node has a stale copy (a checkpoint): only what changed since needs copying. */
    static final int TIER_STALE = 3;
    /** No copy on the member's node. */
    static final int TIER_NONE = 4;
    static final int TIERS = 5;

    /** Best copy first: most recent checkpoint, then active before replica before stale, then node id. */
    static final Comparator<PeerCopy> BEST_SOURCE_FIRST = Comparator.comparingLong(PeerCopy::checkpointOffset)
            .reversed()
            .thenComparing(PeerCopy::role)
            .thenComparing(PeerCopy::nodeId);

    record Copy(int member, CopyRole role, long checkpointOffset) {}

    final MemberInfo[] members;
    final int[] nodeOf;
    final int nodeCount;
    /** The members of node n are [firstMember[n], firstMember[n + 1]): members are sorted by node. */
    private final int[] firstMember;
    private final Map<TaskId, List<Copy>> copies = new HashMap<>();

    CopyIndex(List<MemberInfo> given) {
        members = given.toArray(MemberInfo[]::new);
        Arrays.sort(members, Comparator.comparing(MemberInfo::nodeId)
                .thenComparingInt(MemberInfo::unit)
                .thenComparing(MemberInfo::memberId));
        nodeOf = new int[members.length];
        int node = -1;
        for (int m = 0; m < members.length; m++) {
            if (m == 0 || !members[m].nodeId().equals(members[m - 1].nodeId())) {
                node++;
            }
            nodeOf[m] = node;
            for (HeldCopy h : members[m].held()) {
                copies.computeIfAbsent(h.task(), t -> new ArrayList<>())
                        .add(new Copy(m, h.role(), h.checkpointOffset()));
            }
        }
        nodeCount = node + 1;
        firstMember = new int[nodeCount + 1];
        for (int m = members.length - 1; m >= 0; m--) {
            firstMember[nodeOf[m]] = m;
        }
        firstMember[nodeCount] = members.length;
        Set<String> ids = new HashSet<>();
        for (MemberInfo mi : members) {
            if (!ids.add(mi.memberId())) {
                throw new IllegalArgumentException("member " + mi.memberId() + " is listed twice");
            }
        }
    }

    int firstMemberOf(int node) {
        return firstMember[node];
    }

    /** The nodes holding any copy of {@code task}, ascending, each once. */
    int[] nodesWithCopies(TaskId task) {
        List<Copy> list = copiesOf(task);
        int[] nodes = new int[list.size()];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = nodeOf[list.get(i).member()];
        }
        Arrays.sort(nodes);
        int distinct = 0;
        for (int i = 0; i < nodes.length; i++) {
            if (i == 0 || nodes[i] != nodes[i - 1]) {
                nodes[distinct++] = nodes[i];
            }
        }
        return Arrays.copyOf(nodes, distinct);
    }

    List<Copy> copiesOf(TaskId task) {
        return copies.getOrDefault(task, List.of());
    }

    /** Whether a member in the group runs {@code task} as active (its owner before this rebalance). */
    boolean hasActiveOwner(TaskId task) {
        for (Copy c : copiesOf(task)) {
            if (c.role() == CopyRole.ACTIVE) {
                return true;
            }
        }
        return false;
    }

    /** How good member {@code m} is for {@code task} placed as active or replica: a {@code TIER_*}. */
    int tier(TaskId task, int m, boolean active) {
        int best = TIER_NONE;
        CopyRole keep = active ? CopyRole.ACTIVE : CopyRole.REPLICA;
        for (Copy c : copiesOf(task)) {
            int t;
            if (c.member() == m && c.role() != CopyRole.STALE) {
                t = c.role() == keep ? TIER_KEEP : TIER_OTHER_ROLE;
            } else if (nodeOf[c.member()] != nodeOf[m]) {
                continue;
            } else {
                t = c.role() == CopyRole.STALE ? TIER_STALE : TIER_NODE_LIVE;
            }
            best = Math.min(best, t);
        }
        return best;
    }

    /** The most recent checkpoint offset of a stale copy of {@code task} on {@code node}, or -1. */
    long staleOffset(TaskId task, int node) {
        long best = -1;
        for (Copy c : copiesOf(task)) {
            if (nodeOf[c.member()] == node && c.role() == CopyRole.STALE) {
                best = Math.max(best, c.checkpointOffset());
            }
        }
        return best;
    }

    /**
     * Where member {@code m} can recover {@code task} from: empty when its node runs the task (on any
     * unit); else one copy per other node, best first ({@link #BEST_SOURCE_FIRST}), leaving out those
     * no more recent than the stale copy this node already has.
     */
    List<PeerCopy> sources(TaskId task, int m) {
        int node = nodeOf[m];
        boolean ownStale = false;
        long ownOffset = -1;
        for (Copy c : copiesOf(task)) {
            if (nodeOf[c.member()] == node) {
                if (c.role() != CopyRole.STALE) {
                    return List.of();
                }
                ownStale = true;
                ownOffset = Math.max(ownOffset, c.checkpointOffset());
            }
        }
        Map<Integer, PeerCopy> perNode = new HashMap<>();
        for (Copy c : copiesOf(task)) {
            int other = nodeOf[c.member()];
            if (other == node || (ownStale && ownOffset >= 0 && c.checkpointOffset() <= ownOffset)) {
                continue;
            }
            MemberInfo holder = members[c.member()];
            PeerCopy p = new PeerCopy(holder.nodeId(), holder.nodeUrl(), c.role(), c.checkpointOffset());
            perNode.merge(other, p, (a, b) -> BEST_SOURCE_FIRST.compare(a, b) <= 0 ? a : b);
        }
        List<PeerCopy> out = new ArrayList<>(perNode.values());
        out.sort(BEST_SOURCE_FIRST);
        return out;
    }
}
