package io.railgun.node.cluster;

import io.railgun.node.assignment.CopyRole;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The value of a record of the cluster topic ({@value ClusterTopic#NAME}, compacted, key = the
 * node id as UTF-8): a {@link NodeStatus}. A null value (tombstone) says the node stopped cleanly.
 * Big-endian, strings as {@link DataOutputStream#writeUTF} (2-byte length, modified UTF-8):
 *
 * <pre>
 *  offset  size  field
 *  0       1     version, {@value #VERSION}
 *  1       2+n   node id
 *  .       2+n   API URL
 *  .       8     started at, ms since the epoch
 *  .       8     published at, ms since the epoch (the writer's clock)
 *  .       4     processor units
 *  .       4     copies that follow, c
 *  then c times:
 *          2+n   stream name
 *          2+n   partitioner
 *          4     partition
 *          1     role: 0 active, 1 replica, 2 stale
 *          8     lag in records, -1 unknown
 *          8     checkpoint offset, -1 unknown
 *          8     checkpoint age in ms (0: covers every record read), -1 unknown
 *          8     recovery bytes done, -1 when not recovering
 *          8     recovery bytes in all, -1 when not recovering or not known
 * </pre>
 *
 * A reader rejects a version it does not know ({@link IllegalArgumentException}); the cluster view
 * then ignores that node's record (a newer node's, during an upgrade) and logs it once. A new field
 * goes at the end of a copy or of the header with a new version number. Stateless, thread-safe.
 */
public final class NodeStatusDescriptor {
    public static final byte VERSION = 1;

    private NodeStatusDescriptor() {}

    public static byte[] encode(NodeStatus s) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + 64 * s.copies().size());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeUTF(s.nodeId());
            out.writeUTF(s.apiUrl());
            out.writeLong(s.startedMs());
            out.writeLong(s.publishedMs());
            out.writeInt(s.units());
            out.writeInt(s.copies().size());
            for (CopyStatus c : s.copies()) {
                out.writeUTF(c.stream());
                out.writeUTF(c.partitioner());
                out.writeInt(c.partition());
                out.writeByte(roleCode(c.role()));
                out.writeLong(c.lag());
                out.writeLong(c.checkpointOffset());
                out.writeLong(c.checkpointAgeMs());
                out.writeLong(c.recoveryBytesDone());
                out.writeLong(c.recoveryBytesTotal());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static int roleCode(CopyRole role) {
        return switch (role) {
            case ACTIVE -> 0;
            case REPLICA -> 1;
            case STALE -> 2;
        };
    }

    /** @throws IllegalArgumentException for another version, or bytes that are not a whole record */
    public static NodeStatus decode(byte[] value) {
        if (value == null || value.length == 0) {
            throw new IllegalArgumentException("empty cluster record");
        }
        if (value[0] != VERSION) {
            throw new IllegalArgumentException("cluster record version " + value[0] + " is not known to this node (it reads "
                    + VERSION + ")");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value, 1, value.length - 1))) {
            String nodeId = in.readUTF();
            String url = in.readUTF();
            long started = in.readLong();
            long published = in.readLong();
            int units = in.readInt();
            int n = in.readInt();
            if (n < 0 || n > value.length / 40) {
                throw new IllegalArgumentException("cluster record of node " + nodeId + " announces " + n + " copies");
            }
            List<CopyStatus> copies = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                String stream = in.readUTF();
                String partitioner = in.readUTF();
                int partition = in.readInt();
                int code = in.readUnsignedByte();
                CopyRole role = switch (code) {
                    case 0 -> CopyRole.ACTIVE;
                    case 1 -> CopyRole.REPLICA;
                    case 2 -> CopyRole.STALE;
                    default -> throw new IllegalArgumentException("cluster record of node " + nodeId + ": unknown role "
                            + code);
                };
                copies.add(new CopyStatus(stream, partitioner, partition, role, in.readLong(), in.readLong(),
                        in.readLong(), in.readLong(), in.readLong()));
            }
            if (in.available() > 0) {
                throw new IllegalArgumentException("cluster record of node " + nodeId + " has " + in.available()
                        + " trailing bytes");
            }
            return new NodeStatus(nodeId, url, started, published, units, copies);
        } catch (EOFException e) {
            throw new IllegalArgumentException("truncated cluster record", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
