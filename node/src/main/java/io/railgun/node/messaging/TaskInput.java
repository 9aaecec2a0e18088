package io.railgun.node.messaging;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The records of a task's input topic. The value's first byte says what it is:
 * <ul>
 *   <li>{@link #EVENT}: a binary event row ({@code io.railgun.engine.event}) follows;</li>
 *   <li>{@link #STATEMENT}: metrics added: id, backfill flag, names, statement text;</li>
 *   <li>{@link #REMOVE}: a metric removed: its name;</li>
 *   <li>{@link #SCHEMA}: the stream's new definition (a control-topic value);</li>
 *   <li>{@link #READ}: a point read: metric name, then a row holding the key.</li>
 * </ul>
 * DDL goes into the input partitions themselves, so every task applies it at the same point of its
 * input, the first time and on every replay. Events and reads carry headers naming the reply topic
 * ({@value #REPLY_TO}) and the request's correlation id ({@value #CORRELATION}, 8 bytes).
 */
public final class TaskInput {
    public static final byte EVENT = 0;
    public static final byte STATEMENT = 1;
    public static final byte REMOVE = 2;
    public static final byte SCHEMA = 3;
    public static final byte READ = 4;

    public static final String REPLY_TO = "railgun.reply-to";
    public static final String CORRELATION = "railgun.correlation";

    private TaskInput() {}

    /**
     * An upper bound of the size Kafka counts for the record of an event (against the producer's
     * {@code max.request.size} and the broker's {@code message.max.bytes}): its value (kind byte and
     * row), its key, its two headers with a reply-topic name of up to 255 bytes, and the framing of
     * a record batch holding only it.
     */
    public static long eventRecordBytes(int rowLength, byte[] key) {
        return 1L + rowLength + (key == null ? 0 : key.length) + REPLY_TO.length() + 255 + CORRELATION.length() + 8 + 128;
    }

    public static byte[] event(byte[] row, int length) {
        byte[] v = new byte[length + 1];
        v[0] = EVENT;
        System.arraycopy(row, 0, v, 1, length);
        return v;
    }

    public static byte[] statement(long id, boolean backfill, List<String> names, String query) {
        return write(out -> {
            out.writeByte(STATEMENT);
            out.writeLong(id);
            out.writeBoolean(backfill);
            out.writeInt(names.size());
            for (String n : names) {
                out.writeUTF(n);
            }
            byte[] q = query.getBytes(StandardCharsets.UTF_8);
            out.writeInt(q.length);
            out.write(q);
        });
    }

    public static byte[] remove(String metric) {
        return write(out -> {
            out.writeByte(REMOVE);
            out.writeUTF(metric);
        });
    }

    public static byte[] schema(byte[] controlValue) {
        byte[] v = new byte[controlValue.length + 1];
        v[0] = SCHEMA;
        System.arraycopy(controlValue, 0, v, 1, controlValue.length);
        return v;
    }

    public static byte[] read(String metric, byte[] keyRow, int length) {
        return write(out -> {
            out.writeByte(READ);
            out.writeUTF(metric);
            out.write(keyRow, 0, length);
        });
    }

    public static Headers replyHeaders(byte[] replyTopic, long correlation) {
        byte[] c = new byte[8];
        for (int i = 0; i < 8; i++) {
            c[i] = (byte) (correlation >>> (56 - 8 * i));
        }
        return new RecordHeaders(new Header[] {new RecordHeader(REPLY_TO, replyTopic), new RecordHeader(CORRELATION, c)});
    }

    /** The correlation id in a record's headers, or -1. */
    public static long correlation(Headers headers) {
        Header h = headers.lastHeader(CORRELATION);
        if (h == null || h.value().length != 8) {
            return -1;
        }
        long c = 0;
        for (byte b : h.value()) {
            c = c << 8 | (b & 0xff);
        }
        return c;
    }

    /** A decoded {@link #STATEMENT} record. */
    public record StatementAdded(long id, boolean backfill, List<String> names, String query) {}

    public static StatementAdded decodeStatement(byte[] value) {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(value, 1, value.length - 1))) {
            long id = in.readLong();
            boolean backfill = in.readBoolean();
            int n = in.readInt();
            List<String> names = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                names.add(in.readUTF());
            }
            byte[] q = new byte[in.readInt()];
            in.readFully(q);
            return new StatementAdded(id, backfill, names, new String(q, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String decodeRemove(byte[] value) {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(value, 1, value.length - 1))) {
            return in.readUTF();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A decoded {@link #READ} record: the metric and where the key row starts in the value. */
    public record Read(String metric, int rowOffset) {}

    public static Read decodeRead(byte[] value) {
        int nameLength = (value[1] & 0xff) << 8 | (value[2] & 0xff);
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(value, 1, value.length - 1))) {
            return new Read(in.readUTF(), 3 + nameLength);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private interface Body {
        void write(DataOutputStream out) throws IOException;
    }

    private static byte[] write(Body body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            body.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
