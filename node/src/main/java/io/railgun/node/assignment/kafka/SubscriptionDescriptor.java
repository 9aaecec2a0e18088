package io.railgun.node.assignment.kafka;

import io.railgun.node.assignment.HeldCopy;
import io.railgun.node.assignment.MemberInfo;
import io.railgun.node.assignment.TaskId;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The user data of a task-group member's subscription, format version 1: the {@link MemberInfo}
 * its processor unit advertises to the group leader. Big-endian, as Kafka's own protocol.
 *
 * <pre>
 *  size      field
 *  1         format version (1)
 *  2 + n     node id: u16 byte length n, UTF-8
 *  2 + n     node internal URL: u16 byte length n, UTF-8
 *  4         unit index
 *  4         budget (copies it may run)
 *  2 + ...   topic table: u16 count, then each topic as u16 byte length and UTF-8
 *  4         held copy count c
 *  c * 15    held copies, each:
 *              2  topic index in the topic table
 *              4  partition
 *              1  role: 0 active, 1 replica, 2 stale
 *              8  checkpoint offset (-1 unknown)
 * </pre>
 *
 * The member id is not written: Kafka keys every subscription by it. Topics are written once
 * (a unit holds many partitions of few topics): 15 bytes per copy. A reader refuses a version it
 * does not know with an error naming both versions: every node of a group must read what the
 * others write, so a format change needs a version that old leaders can still read.
 *
 * <p>Stateless; safe from any thread.
 */
public final class SubscriptionDescriptor {
    public static final byte VERSION = 1;
    private static final int COPY_SIZE = 2 + 4 + 1 + 8;

    private SubscriptionDescriptor() {}

    /** The subscription user data of {@code info} (its member id is not written). */
    public static ByteBuffer encode(MemberInfo info) {
        StringTable topics = new StringTable();
        for (HeldCopy h : info.held()) {
            topics.indexOf(h.task().topic());
        }
        int size = 1 + StringTable.stringSize(info.nodeId()) + StringTable.stringSize(info.nodeUrl()) + 4 + 4
                + topics.encodedSize() + 4 + COPY_SIZE * info.held().size();
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put(VERSION);
        StringTable.putString(out, info.nodeId());
        StringTable.putString(out, info.nodeUrl());
        out.putInt(info.unit());
        out.putInt(info.budget());
        topics.writeTo(out);
        out.putInt(info.held().size());
        for (HeldCopy h : info.held()) {
            out.putShort((short) topics.indexOf(h.task().topic()));
            out.putInt(h.task().partition());
            out.put(RoleCodes.code(h.role()));
            out.putLong(h.checkpointOffset());
        }
        return out.flip();
    }

    /**
     * The member {@code memberId} described by {@code data} (not consumed: read from a duplicate).
     *
     * @throws IllegalArgumentException if the data is missing, truncated or of another version
     */
    public static MemberInfo decode(String memberId, ByteBuffer data) {
        if (data == null || !data.hasRemaining()) {
            throw new IllegalArgumentException("member " + memberId + " sent no railgun subscription data:"
                    + " is it a consumer of another application in the task group?");
        }
        ByteBuffer in = data.duplicate();
        byte version = in.get();
        if (version != VERSION) {
            throw new IllegalArgumentException("member " + memberId + " sent railgun subscription data of format version "
                    + version + ", this node reads version " + VERSION + ": run one Railgun version on all nodes");
        }
        try {
            String nodeId = StringTable.getString(in);
            String nodeUrl = StringTable.getString(in);
            int unit = in.getInt();
            int budget = in.getInt();
            StringTable topics = StringTable.readFrom(in);
            int count = in.getInt();
            if (count < 0 || count > in.remaining() / COPY_SIZE) {
                throw new IllegalArgumentException("copy count " + count + " does not fit the data");
            }
            List<HeldCopy> held = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                String topic = topics.get(Short.toUnsignedInt(in.getShort()));
                int partition = in.getInt();
                held.add(new HeldCopy(new TaskId(topic, partition), RoleCodes.role(in.get()), in.getLong()));
            }
            return new MemberInfo(memberId, nodeId, nodeUrl, unit, budget, held);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new IllegalArgumentException("member " + memberId + " sent malformed railgun subscription data: "
                    + (e.getMessage() == null ? "truncated" : e.getMessage()), e);
        }
    }
}
