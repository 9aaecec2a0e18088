package io.railgun.node.assignment.placement;

import io.railgun.node.assignment.MemberAssignment;
import io.railgun.node.assignment.MemberAssignment.PeerCopy;
import io.railgun.node.assignment.MemberInfo;
import io.railgun.node.assignment.TaskId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The paper's assignment strategy (seed 000 §4.2, Figure 7) as a pure, deterministic function: the
 * members of the task group, the tasks and the replication factor R give each member its active
 * tasks, its replica tasks and, for each of them its node lacks, the peers to recover it from.
 *
 * <p><b>Invariants</b>, whatever the input: at most one active per task; never two copies of a task
 * on one node ({@link MemberInfo#nodeId()}); a member gets only tasks of topics it subscribes to;
 * no member goes over its {@link MemberInfo#budget()} unless every member subscribing to the task
 * is at its budget, and then only with actives (an active over budget on the least loaded member
 * beats a task nobody answers; a replica that fits nowhere is left out); the same input in any
 * order gives the same plan.
 *
 * <p><b>Budget.</b> Each rebalance resets every member's room to its fair share of the copies to
 * place ({@link FairShare}, computed once for actives and once for all copies), never above its
 * advertised budget. Actives are placed before replicas, each pass going through the candidate
 * tiers of {@link CopyIndex} in order across all tasks, so a task that can stay never loses its
 * place to one that has to move:
 *
 * <ol>
 *   <li>moves the previous plan started (cooperative rebalancing hands a task over in two
 *       rebalances: its owner revokes it, then the follow-up gives it to the planned member): to
 *       that member, if it is still in the group and subscribes (the previous plan already
 *       weighed its budget).
 *       Without this a task revoked for balance would come back as if its owner had failed, and
 *       the failover rule below would send it back to a busy replica holder, forever;
 *   <li>actives, within the fair share: keep on the previous active owner; else a member running
 *       it as replica; else a member whose node runs it on another unit;
 *   <li>actives whose owner left the group (failover), within the advertised budget even above the
 *       fair share: a member running it as replica, else a unit of a node running it. Availability
 *       wins over balance here: the promoted replica answers at once, and the next rebalance moves
 *       the surplus back within the fair share;
 *   <li>actives within the fair share: a node with a stale copy (most recent checkpoint first),
 *       else the least loaded member;
 *   <li>actives within the advertised budget, the same tiers; then over budget: on the owner,
 *       else the least loaded;
 *   <li>replicas, R - 1 per task on distinct nodes (fewer when there are fewer nodes), within the
 *       fair share of all copies, then within the advertised budget: keep on the previous replica
 *       holder, else the previous active, else a node running it, else a stale copy, else the least
 *       loaded.
 * </ol>
 *
 * Within a tier, candidates rank by most recent checkpoint (stale tier only), then by load (copies
 * given so far in this plan), for a replica then by how few tasks active on the same node as this
 * one the candidate's node backs up already (a node's failure then spreads its promotions), then by
 * (node id, unit, member id).
 *
 * <p><b>Sources.</b> For each task assigned to a member whose node runs no copy of it, the nodes
 * that hold one, one entry per node and best first: most recent checkpoint, then active before
 * replica before stale, then node id; a node with a stale copy is told only of more recent copies
 * (and gets no entry when there are none: it resumes from its own checkpoint). An entry with an
 * empty list means that no member of the group holds the task: it is rebuilt from its input.
 *
 * <p>Stateless; safe to call from any thread.
 */
public final class TaskPlacement {
    private final CopyIndex index;
    private final TaskId[] tasks;
    private final int replication;
    /** The topics each member subscribes to (null: all), by member index. */
    private final Set<String>[] topicsOf;
    private final int[] activeLoad;
    private final int[] totalLoad;
    private final int[] activeOf;
    private final List<List<Integer>> replicasOf;
    private final FairShare activeShare;
    private final FairShare totalShare;

    private final Map<TaskId, String> moving;
    /** backups[a][r]: replicas placed on node r of tasks whose active is on node a. */
    private final int[][] backups;
    /** The best member found so far by {@link #best}, its tier and stale checkpoint offset. */
    private int candidate;
    private int candidateTier;
    private long candidateOffset;

    private TaskPlacement(List<MemberInfo> members, Collection<TaskId> taskSet, int replication,
            Map<String, Set<String>> topicsByMember, Map<TaskId, String> moving) {
        if (replication < 1) {
            throw new IllegalArgumentException("replication must be at least 1, was " + replication);
        }
        this.index = new CopyIndex(members);
        this.tasks = new TreeSet<>(taskSet).toArray(TaskId[]::new);
        this.replication = replication;
        @SuppressWarnings("unchecked")
        Set<String>[] topics = new Set[index.members.length];
        for (int m = 0; m < topics.length; m++) {
            topics[m] = topicsByMember.get(index.members[m].memberId());
        }
        this.topicsOf = topics;
        this.moving = moving;
        this.backups = new int[index.nodeCount][index.nodeCount];
        int n = index.members.length;
        activeLoad = new int[n];
        totalLoad = new int[n];
        activeOf = new int[tasks.length];
        Arrays.fill(activeOf, -1);
        replicasOf = new ArrayList<>(tasks.length);
        for (int i = 0; i < tasks.length; i++) {
            replicasOf.add(new ArrayList<>(Math.max(0, replication - 1)));
        }
        int[] budgets = new int[n];
        for (int m = 0; m < n; m++) {
            budgets[m] = index.members[m].budget();
        }
        activeShare = new FairShare(budgets, tasks.length);
        totalShare = new FairShare(budgets, (long) tasks.length * Math.min(replication, index.nodeCount));
    }

    /** {@link #place(List, Collection, int, Map)} for members that all subscribe to every task's topic. */
    public static Map<String, MemberAssignment> place(List<MemberInfo> members, Collection<TaskId> tasks,
            int replication) {
        return place(members, tasks, replication, Map.of());
    }

    /**
     * The plan, keyed by member id, with an entry (possibly empty) for every member.
     *
     * @param topicsByMember the topics each member subscribes to; a member missing from the map
     *                       subscribes to all. A task no member subscribes to is left out.
     */
    public static Map<String, MemberAssignment> place(List<MemberInfo> members, Collection<TaskId> tasks,
            int replication, Map<String, Set<String>> topicsByMember) {
        return place(members, tasks, replication, topicsByMember, Map.of());
    }

    /**
     * The plan, finishing the moves a previous plan started.
     *
     * @param moving for each task the previous plan moved but left out for a cooperative handover,
     *               the member id it was planned for (ignored for a task some member runs as active)
     */
    public static Map<String, MemberAssignment> place(List<MemberInfo> members, Collection<TaskId> tasks,
            int replication, Map<String, Set<String>> topicsByMember, Map<TaskId, String> moving) {
        TaskPlacement p = new TaskPlacement(members, tasks, replication, topicsByMember, moving);
        p.placeActives();
        p.placeReplicas();
        return p.plan();
    }

    private enum Room { FAIR, BUDGET, ANY }

    private void placeActives() {
        finishMoves();
        for (int tier = CopyIndex.TIER_KEEP; tier <= CopyIndex.TIER_NODE_LIVE; tier++) {
            activePass(tier, Room.FAIR, false);
        }
        activePass(CopyIndex.TIER_OTHER_ROLE, Room.BUDGET, true);
        activePass(CopyIndex.TIER_NODE_LIVE, Room.BUDGET, true);
        activePass(CopyIndex.TIER_STALE, Room.FAIR, false);
        activePass(CopyIndex.TIER_NONE, Room.FAIR, false);
        for (int tier = 0; tier < CopyIndex.TIERS; tier++) {
            activePass(tier, Room.BUDGET, false);
        }
        // over budget: an owner keeps its task (moving it would balance nothing, everyone is full)
        activePass(CopyIndex.TIER_KEEP, Room.ANY, false);
        activePass(-1, Room.ANY, false);
    }

    private void finishMoves() {
        if (moving.isEmpty()) {
            return;
        }
        Map<String, Integer> byId = new HashMap<>();
        for (int m = 0; m < index.members.length; m++) {
            byId.put(index.members[m].memberId(), m);
        }
        for (int t = 0; t < tasks.length; t++) {
            Integer m = byId.get(moving.get(tasks[t]));
            if (m != null && !index.hasActiveOwner(tasks[t]) && subscribes(m, tasks[t])) {
                activeOf[t] = m;
                activeShare.took(m, ++activeLoad[m]);
                totalShare.took(m, ++totalLoad[m]);
            }
        }
    }

    private void activePass(int tier, Room room, boolean orphansOnly) {
        for (int t = 0; t < tasks.length; t++) {
            if (activeOf[t] >= 0 || (orphansOnly && index.hasActiveOwner(tasks[t]))) {
                continue;
            }
            int m = best(t, tier, room, true);
            if (m >= 0) {
                activeOf[t] = m;
                activeShare.took(m, ++activeLoad[m]);
                totalShare.took(m, ++totalLoad[m]);
            }
        }
    }

    private void placeReplicas() {
        int wanted = Math.min(replication, index.nodeCount) - 1;
        if (wanted <= 0) {
            return;
        }
        for (Room room : new Room[] {Room.FAIR, Room.BUDGET}) {
            for (int tier = 0; tier < CopyIndex.TIERS; tier++) {
                for (int t = 0; t < tasks.length; t++) {
                    List<Integer> replicas = replicasOf.get(t);
                    while (activeOf[t] >= 0 && replicas.size() < wanted) {
                        int m = best(t, tier, room, false);
                        if (m < 0) {
                            break;
                        }
                        replicas.add(m);
                        backups[index.nodeOf[activeOf[t]]][index.nodeOf[m]]++;
                        totalShare.took(m, ++totalLoad[m]);
                    }
                }
            }
        }
    }

    /** The best member for task {@code t} in {@code tier} (-1: any tier) with room, or -1. */
    private int best(int t, int tier, Room room, boolean active) {
        candidate = -1;
        if (tier >= 0 && tier < CopyIndex.TIER_NONE) {
            // only units of nodes holding a copy can be in these tiers; nodes ascending, units contiguous
            for (int node : index.nodesWithCopies(tasks[t])) {
                for (int m = index.firstMemberOf(node); m < index.firstMemberOf(node + 1); m++) {
                    consider(t, m, tier, room, active);
                }
            }
        } else {
            for (int m = 0; m < index.members.length; m++) {
                consider(t, m, tier, room, active);
            }
        }
        return candidate;
    }

    /** Makes member {@code m} the {@link #candidate} if it qualifies and beats the current one. */
    private void consider(int t, int m, int tier, Room room, boolean active) {
        TaskId task = tasks[t];
        if (!subscribes(m, task) || nodeHasCopy(t, index.nodeOf[m]) || !hasRoom(m, room, active)) {
            return;
        }
        int mTier = index.tier(task, m, active);
        if (tier >= 0 && mTier != tier) {
            return;
        }
        long offset = mTier == CopyIndex.TIER_STALE ? index.staleOffset(task, index.nodeOf[m]) : 0;
        if (candidate < 0 || better(m, mTier, offset, candidate, candidateTier, candidateOffset, room == Room.ANY)
                || (!active && tiedButFewerBackups(t, m, mTier, offset, candidate, candidateTier, candidateOffset))) {
            candidate = m;
            candidateTier = mTier;
            candidateOffset = offset;
        }
    }

    /**
     * Between replica candidates equal on tier, checkpoint and load: the node that backs up fewer of
     * the tasks whose active is on this task's active node, so a node's failure spreads its
     * promotions over the others instead of piling them on one.
     */
    private boolean tiedButFewerBackups(int t, int m, int tier, long offset, int b, int bTier, long bOffset) {
        if (tier != bTier || offset != bOffset || totalLoad[m] != totalLoad[b]) {
            return false;
        }
        int[] row = backups[index.nodeOf[activeOf[t]]];
        return row[index.nodeOf[m]] < row[index.nodeOf[b]];
    }

    /** Within a tier: most recent checkpoint, then load; over budget: load, then tier. Then index order. */
    private boolean better(int m, int tier, long offset, int b, int bTier, long bOffset, boolean loadFirst) {
        if (loadFirst && totalLoad[m] != totalLoad[b]) {
            return totalLoad[m] < totalLoad[b];
        }
        if (tier != bTier) {
            return tier < bTier;
        }
        if (offset != bOffset) {
            return offset > bOffset;
        }
        return totalLoad[m] < totalLoad[b];
    }

    private boolean hasRoom(int m, Room room, boolean active) {
        return switch (room) {
            case FAIR -> active ? activeShare.hasRoom(m, activeLoad[m]) : totalShare.hasRoom(m, totalLoad[m]);
            case BUDGET -> totalShare.underBudget(m, totalLoad[m]);
            case ANY -> true;
        };
    }

    private boolean subscribes(int m, TaskId task) {
        Set<String> topics = topicsOf[m];
        return topics == null || topics.contains(task.topic());
    }

    private boolean nodeHasCopy(int t, int node) {
        if (activeOf[t] >= 0 && index.nodeOf[activeOf[t]] == node) {
            return true;
        }
        for (int r : replicasOf.get(t)) {
            if (index.nodeOf[r] == node) {
                return true;
            }
        }
        return false;
    }

    private Map<String, MemberAssignment> plan() {
        int n = index.members.length;
        List<List<TaskId>> actives = new ArrayList<>(n);
        List<List<TaskId>> replicas = new ArrayList<>(n);
        List<Map<TaskId, List<PeerCopy>>> sources = new ArrayList<>(n);
        for (int m = 0; m < n; m++) {
            actives.add(new ArrayList<>());
            replicas.add(new ArrayList<>());
            sources.add(new TreeMap<>());
        }
        for (int t = 0; t < tasks.length; t++) {
            if (activeOf[t] >= 0) {
                actives.get(activeOf[t]).add(tasks[t]);
                addSources(sources.get(activeOf[t]), t, activeOf[t]);
            }
            for (int r : replicasOf.get(t)) {
                replicas.get(r).add(tasks[t]);
                addSources(sources.get(r), t, r);
            }
        }
        Map<String, MemberAssignment> plan = new TreeMap<>();
        for (int m = 0; m < n; m++) {
            plan.put(index.members[m].memberId(), new MemberAssignment(actives.get(m), replicas.get(m), sources.get(m)));
        }
        return Collections.unmodifiableMap(plan);
    }

    private void addSources(Map<TaskId, List<PeerCopy>> into, int t, int m) {
        List<PeerCopy> peers = index.sources(tasks[t], m);
        if (!peers.isEmpty() || index.tier(tasks[t], m, true) == CopyIndex.TIER_NONE) {
            // an entry, even empty, for every task the node lacks: empty says no peer has it (replay)
            into.put(tasks[t], peers);
        }
    }
}
