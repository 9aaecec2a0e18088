package io.railgun.node.assignment.kafka;

import io.railgun.node.assignment.MemberAssignment;
import io.railgun.node.assignment.MemberAssignment.PeerCopy;
import io.railgun.node.assignment.TaskId;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The user data of a task-group member's assignment, format version 1: the part of its
 * {@link MemberAssignment} that Kafka's partition list does not carry (the actives are the
 * assigned partitions themselves). Big-endian, as Kafka's own protocol.
 *
 * <pre>
 *  size      field
 *  1         format version (1)
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
 * </pre>
 *
 * A reader refuses a version it does not know with an error naming both versions.
 *
 * <p>Stateless; safe from any thread.
 */
public final class AssignmentDescriptor {
    public static final byte VERSION = 1;

    private AssignmentDescriptor() {}

    /** The assignment user data of {@code plan} (its actives travel as Kafka partitions). */
    public static ByteBuffer encode(MemberAssignment plan) {
        StringTable topics = new StringTable();
        StringTable nodes = new StringTable();
        List<String> nodeUrls = new ArrayList<>();
        int size = 1 + 4 + 6 * plan.replicas().size() + 4;
        for (TaskId t : plan.replicas()) {
            topics.indexOf(t.topic());
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
        return out.flip();
    }

    /**
     * The plan that {@code data} describes, with {@code actives} (the partitions Kafka assigned).
     * Null or empty data (an assignment from no leader, or none yet) gives no replicas, no sources.
     *
     * @throws IllegalArgumentException if the data is truncated or of another version
     */
    public static MemberAssignment decode(ByteBuffer data, List<TaskId> actives) {
        if (data == null || !data.hasRemaining()) {
            return new MemberAssignment(actives, List.of(), Map.of());
        }
        ByteBuffer in = data.duplicate();
        byte version = in.get();
        if (version != VERSION) {
            throw new IllegalArgumentException("the group leader sent railgun assignment data of format version "
                    + version + ", this node reads version " + VERSION + ": run one Railgun version on all nodes");
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
            return new MemberAssignment(actives, replicas, sources);
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
