package io.railgun.node.assignment.kafka;

import io.railgun.node.assignment.MemberAssignment;
import io.railgun.node.assignment.MemberAssignment.PeerCopy;
import io.railgun.node.assignment.TaskId;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The user data of a task-group member's assignment, format version 2: the part of its
 * {@link MemberAssignment} that Kafka's partition list does not carry (the actives are the
 * assigned partitions themselves), and what the member needs to tell whether the plan is the
 * group's final one. Big-endian, as Kafka's own protocol.
 *
 * <pre>
 *  size      field
 *  1         format version (2)
 *  2 + ...   topic table: u16 count, then each topic as u16 byte length and UTF-8
 *  2 + ...   node table: u16 count, then each node as its id and its internal URL (u16 length, UTF-8)
 *  4         replica count r
 *  r * 6     replica tasks: u16 topic index, i32 partition
 *  4         source entry count s (tasks this member's node lacks)
 *  s * ...   source entries, each:
 *              2  topic index
 *              4  partition
 *              2  peer count p (0: no member holds the task, rebuild from the input)
 *              p * 11  peers, best first: u16 node index, u8 role (0 active, 1 replica, 2 stale),
 *                      i64 checkpoint offset
 *  1         flags: bit 0 set when the leader left moves to a follow-up rebalance
 *  2 + n * 2 the member's subscription the plan was made for: u16 count n, u16 topic indices
 * </pre>
 *
 * <p>Why the last two fields: Kafka stores each member's assignment with the group and hands it
 * back, without a rebalance, to a static member that rejoins a stable group (a node restarted
 * within the session timeout). A plan that was waiting for its follow-up, or that was made before
 * the member subscribed to a new stream's topics, would then stay in force with tasks assigned to
 * no member, since the members that were to rejoin died with their process (and an embedded
 * broker, restarted with its node, forgets a rebalance in progress). From these fields the member
 * sees it and asks for the rebalance itself ({@link Handed#rebalanceDue}).
 *
 * <p>A reader refuses a version it does not know with an error naming both versions. It still reads
 * version 1 (the same layout without the last two fields), which Kafka may hand back after an
 * upgrade: such a plan is taken as final.
 *
 * <p>Stateless; safe from any thread.
 */
public final class AssignmentDescriptor {
    public static final byte VERSION = 2;
    private static final byte VERSION_1 = 1;
    private static final int FOLLOW_UP = 1;

    private AssignmentDescriptor() {}

    /**
     * What a member's assignment data says: its plan, whether the leader left moves to a follow-up
     * rebalance, and the subscription the plan was made for (null when the data does not say:
     * version 1, or no data).
     */
    public record Handed(MemberAssignment plan, boolean followUp, Set<String> subscription) {
        /**
         * Why the member must ask for a rebalance after receiving this plan, having joined with
         * {@code joined} (its subscription then), or null when the plan is final or the follow-up
         * will come anyway: the plan was made for a subscription without some of these topics, or,
         * for the {@code first} plan its consumer gets (the one Kafka may hand back, without a
         * rebalance, to a static member rejoining after a restart), moves were left to a follow-up.
         * A later plan with moves left out needs no asking: their owner revokes and rejoins, which
         * starts the follow-up, and asking as well could start one round more.
         */
        public String rebalanceDue(Set<String> joined, boolean first) {
            if (followUp && first) {
                return "the plan left moves to a follow-up rebalance";
            }
            if (subscription != null && !subscription.containsAll(joined)) {
                return "the plan was made before this member subscribed to every topic it reads";
            }
            return null;
        }
    }

    /**
     * The assignment user data of {@code plan} (its actives travel as Kafka partitions), made for a
     * member subscribed to {@code subscription}; {@code followUp} when the leader left moves out.
     */
    public static ByteBuffer encode(MemberAssignment plan, boolean followUp, Set<String> subscription) {
        StringTable topics = new StringTable();
        StringTable nodes = new StringTable();
        List<String> nodeUrls = new ArrayList<>();
        int size = 1 + 4 + 6 * plan.replicas().size() + 4 + 1 + 2 + 2 * subscription.size();
        for (TaskId t : plan.replicas()) {
            topics.indexOf(t.topic());
        }
        List<String> subscribed = new ArrayList<>(new TreeSet<>(subscription));
        for (String topic : subscribed) {
            topics.indexOf(topic);
        }
        for (Map.Entry<TaskId, List<PeerCopy>> e : plan.sources().entrySet()) {
            topics.indexOf(e.getKey().topic());
            size += 6 + 2 + 11 * e.getValue().size();
            for (PeerCopy p : e.getValue()) {
                if (nodes.indexOf(p.nodeId()) == nodeUrls.size()) {
                    nodeUrls.add(p.nodeUrl());
                }
            }
        }
        size += topics.encodedSize() + 2;
        for (int i = 0; i < nodeUrls.size(); i++) {
            size += StringTable.stringSize(nodes.get(i)) + StringTable.stringSize(nodeUrls.get(i));
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put(VERSION);
        topics.writeTo(out);
        out.putShort((short) nodeUrls.size());
        for (int i = 0; i < nodeUrls.size(); i++) {
            StringTable.putString(out, nodes.get(i));
            StringTable.putString(out, nodeUrls.get(i));
        }
        out.putInt(plan.replicas().size());
        for (TaskId t : plan.replicas()) {
            putTask(out, topics, t);
        }
        Map<TaskId, List<PeerCopy>> sorted = new TreeMap<>(plan.sources());
        out.putInt(sorted.size());
        for (Map.Entry<TaskId, List<PeerCopy>> e : sorted.entrySet()) {
            putTask(out, topics, e.getKey());
            out.putShort((short) e.getValue().size());
            for (PeerCopy p : e.getValue()) {
                out.putShort((short) nodes.indexOf(p.nodeId()));
                out.put(RoleCodes.code(p.role()));
                out.putLong(p.checkpointOffset());
            }
        }
        out.put((byte) (followUp ? FOLLOW_UP : 0));
        out.putShort((short) subscribed.size());
        for (String topic : subscribed) {
            out.putShort((short) topics.indexOf(topic));
        }
        return out.flip();
    }

    /**
     * The plan that {@code data} describes, with {@code actives} (the partitions Kafka assigned).
     * Null or empty data (an assignment from no leader, or none yet) gives no replicas, no sources.
     *
     * @throws IllegalArgumentException if the data is truncated or of another version
     */
    public static MemberAssignment decode(ByteBuffer data, List<TaskId> actives) {
        return read(data, actives).plan();
    }

    /**
     * What {@code data} says, with {@code actives} (the partitions Kafka assigned). Null or empty
     * data gives no replicas, no sources, and a final plan for an unknown subscription.
     *
     * @throws IllegalArgumentException if the data is truncated or of another version
     */
    public static Handed read(ByteBuffer data, List<TaskId> actives) {
        if (data == null || !data.hasRemaining()) {
            return new Handed(new MemberAssignment(actives, List.of(), Map.of()), false, null);
        }
        ByteBuffer in = data.duplicate();
        byte version = in.get();
        if (version != VERSION && version != VERSION_1) {
            throw new IllegalArgumentException("the group leader sent railgun assignment data of format version "
                    + version + ", this node reads versions 1 to " + VERSION + ": run one Railgun version on all nodes");
        }
        try {
            StringTable topics = StringTable.readFrom(in);
            int nodeCount = Short.toUnsignedInt(in.getShort());
            List<String> nodeIds = new ArrayList<>(nodeCount);
            List<String> nodeUrls = new ArrayList<>(nodeCount);
            for (int i = 0; i < nodeCount; i++) {
                nodeIds.add(StringTable.getString(in));
                nodeUrls.add(StringTable.getString(in));
            }
            int replicaCount = count(in, 6);
            List<TaskId> replicas = new ArrayList<>(replicaCount);
            for (int i = 0; i < replicaCount; i++) {
                replicas.add(getTask(in, topics));
            }
            int sourceCount = count(in, 8);
            Map<TaskId, List<PeerCopy>> sources = new TreeMap<>();
            for (int i = 0; i < sourceCount; i++) {
                TaskId task = getTask(in, topics);
                int peers = Short.toUnsignedInt(in.getShort());
                List<PeerCopy> list = new ArrayList<>(peers);
                for (int j = 0; j < peers; j++) {
                    int node = Short.toUnsignedInt(in.getShort());
                    if (node >= nodeCount) {
                        throw new IllegalArgumentException("node index " + node + " out of a table of " + nodeCount);
                    }
                    list.add(new PeerCopy(nodeIds.get(node), nodeUrls.get(node), RoleCodes.role(in.get()), in.getLong()));
                }
                sources.put(task, list);
            }
            MemberAssignment plan = new MemberAssignment(actives, replicas, sources);
            if (version == VERSION_1) {
                return new Handed(plan, false, null);
            }
            boolean followUp = (in.get() & FOLLOW_UP) != 0;
            int subscribed = Short.toUnsignedInt(in.getShort());
            Set<String> subscription = new HashSet<>(subscribed);
            for (int i = 0; i < subscribed; i++) {
                subscription.add(topics.get(Short.toUnsignedInt(in.getShort())));
            }
            return new Handed(plan, followUp, Set.copyOf(subscription));
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new IllegalArgumentException("malformed railgun assignment data: "
                    + (e.getMessage() == null ? "truncated" : e.getMessage()), e);
        }
    }

    private static int count(ByteBuffer in, int minEntrySize) {
        int count = in.getInt();
        if (count < 0 || count > in.remaining() / minEntrySize) {
            throw new IllegalArgumentException("entry count " + count + " does not fit the data");
        }
        return count;
    }

    private static void putTask(ByteBuffer out, StringTable topics, TaskId t) {
        out.putShort((short) topics.indexOf(t.topic()));
        out.putInt(t.partition());
    }

    private static TaskId getTask(ByteBuffer in, StringTable topics) {
        String topic = topics.get(Short.toUnsignedInt(in.getShort()));
        return new TaskId(topic, in.getInt());
    }
}
