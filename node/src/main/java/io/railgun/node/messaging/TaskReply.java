package io.railgun.node.messaging;

import io.railgun.engine.reply.TaskAnswer;
import io.railgun.engine.task.ReplyStatus;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The records of a reply topic: one task's answer to an event or a point read, or an error.
 * Big-endian; strings are a 2-byte length and UTF-8.
 * <pre>
 * offset 0: version ({@value #VERSION})
 * offset 1: part (2 bytes, unsigned): the index, in its stream's partitioners, of the answering
 *           task's partitioner: which of the event's tasks answers
 * offset 3: kind, then by kind:
 *   EVENT: 0, status (0 counted, 1 duplicate, 2 dropped late), streamTime, n, n x (name, value)
 *   READ:  1, hasStreamTime, streamTime, value
 *   ERROR: 2, HTTP status (2 bytes), code, message
 * value: type (0 null, 1 long, 2 double, 3 string, 4 boolean) and its bytes
 * </pre>
 * The part exists because a task may answer twice: its active copy and its hot replicas process
 * the same input in the same order from the same state and all answer (docs/distribution.md §
 * Replica tasks); the front-end counts the first answer of each part and drops the others. The
 * version is {@value #VERSION}, outside the kinds (0-2) that began replies before it had one, so
 * a reply of an older node is refused with a clear error rather than misread.
 *
 * <p>Only replies to another node's front-end are encoded (a task on the same node hands its
 * {@link TaskAnswer} over as it is): a processor unit encodes with one reused {@link Writer}, the
 * other node's reply collector decodes into the same {@link TaskAnswer}.
 */
public final class TaskReply {
    public static final byte EVENT = 0;
    public static final byte READ = 1;
    public static final byte ERROR = 2;
    /** The format's version, the first byte of every reply. */
    public static final byte VERSION = 16;
    /** The largest part index: the partitioner count of a stream is far below it in practice. */
    public static final int MAX_PART = 0xffff;
    private static final int HEADER = 3;

    private TaskReply() {}

    /** Encodes replies into one growing buffer (one per processor unit). */
    public static final class Writer {
        private ByteBuffer buf = ByteBuffer.allocate(4096);

        /** Encodes any answer of the task of partitioner {@code part} (0 to {@link #MAX_PART}). */
        public byte[] encode(int part, TaskAnswer answer) {
            if (part < 0 || part > MAX_PART) {
                throw new IllegalArgumentException("part " + part + " is outside 0.." + MAX_PART);
            }
            return switch (answer) {
                case TaskAnswer.Event e -> event(part, e);
                case TaskAnswer.Read r -> read(part, r.hasStreamTime(), r.streamTime(), r.value());
                case TaskAnswer.Error e -> error(part, e.status(), e.code(), e.message());
            };
        }

        private void header(int part, byte kind) {
            buf.clear();
            buf.put(VERSION);
            buf.putShort((short) part);
            buf.put(kind);
        }

        private byte[] event(int part, TaskAnswer.Event r) {
            header(part, EVENT);
            put((byte) switch (r.status()) {
                case COUNTED -> 0;
                case DUPLICATE -> 1;
                case DROPPED_LATE -> 2;
            });
            ensure(12);
            buf.putLong(r.streamTime());
            buf.putInt(r.names().length);
            for (int i = 0; i < r.names().length; i++) {
                putName(r.names()[i]);
                putObject(r.values()[i]);
            }
            return Arrays.copyOf(buf.array(), buf.position());
        }

        private byte[] read(int part, boolean hasStreamTime, long streamTime, Object value) {
            header(part, READ);
            put((byte) (hasStreamTime ? 1 : 0));
            ensure(8);
            buf.putLong(streamTime);
            putObject(value);
            return Arrays.copyOf(buf.array(), buf.position());
        }

        private byte[] error(int part, int status, String code, String message) {
            header(part, ERROR);
            ensure(2);
            buf.putShort((short) status);
            putString(code);
            putString(message.length() > 4000 ? message.substring(0, 4000) : message);
            return Arrays.copyOf(buf.array(), buf.position());
        }

        private void putObject(Object v) {
            switch (v) {
                case null -> put((byte) 0);
                case Long l -> {
                    put((byte) 1);
                    ensure(8);
                    buf.putLong(l);
                }
                case Double d -> {
                    put((byte) 2);
                    ensure(8);
                    buf.putDouble(d);
                }
                case String s -> {
                    put((byte) 3);
                    byte[] b = s.getBytes(StandardCharsets.UTF_8);
                    ensure(4 + b.length);
                    buf.putInt(b.length);
                    buf.put(b);
                }
                case Boolean b -> {
                    put((byte) 4);
                    put((byte) (b ? 1 : 0));
                }
                default -> throw new IllegalArgumentException("not a metric value: " + v.getClass());
            }
        }

        private void putName(String name) {
            // names are ASCII identifiers in practice; encode generally all the same
            putString(name);
        }

        private void putString(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            ensure(2 + b.length);
            buf.putShort((short) b.length);
            buf.put(b);
        }

        private void put(byte b) {
            ensure(1);
            buf.put(b);
        }

        private void ensure(int n) {
            if (buf.remaining() < n) {
                ByteBuffer bigger = ByteBuffer.allocate(Math.max(buf.capacity() * 2, buf.position() + n));
                buf.flip();
                bigger.put(buf);
                buf = bigger;
            }
        }
    }

    /** The part (which of an event's tasks answers) of a reply value; checks its version. */
    public static int part(byte[] value) {
        checkVersion(value);
        return (value[1] & 0xff) << 8 | (value[2] & 0xff);
    }

    private static void checkVersion(byte[] value) {
        if (value.length < HEADER + 1 || value[0] != VERSION) {
            throw new IllegalArgumentException("a task reply of version " + (value.length == 0 ? "(empty)" : value[0])
                    + " is not readable by this node (reads " + VERSION + "); every node of a cluster must run the same"
                    + " release");
        }
    }

    /** Decodes a reply value's answer. */
    public static TaskAnswer decode(byte[] value) {
        checkVersion(value);
        ByteBuffer in = ByteBuffer.wrap(value);
        in.position(HEADER);
        byte kind = in.get();
        switch (kind) {
            case EVENT -> {
                ReplyStatus status = switch (in.get()) {
                    case 1 -> ReplyStatus.DUPLICATE;
                    case 2 -> ReplyStatus.DROPPED_LATE;
                    default -> ReplyStatus.COUNTED;
                };
                long streamTime = in.getLong();
                int n = in.getInt();
                String[] names = new String[n];
                Object[] values = new Object[n];
                for (int i = 0; i < n; i++) {
                    names[i] = getString(in);
                    values[i] = getValue(in);
                }
                return new TaskAnswer.Event(status, streamTime, names, values);
            }
            case READ -> {
                boolean has = in.get() != 0;
                long streamTime = in.getLong();
                return new TaskAnswer.Read(has, streamTime, getValue(in));
            }
            case ERROR -> {
                int status = in.getShort();
                return new TaskAnswer.Error(status, getString(in), getString(in));
            }
            default -> throw new IllegalArgumentException("unknown reply kind " + kind);
        }
    }

    private static Object getValue(ByteBuffer in) {
        byte type = in.get();
        return switch (type) {
            case 0 -> null;
            case 1 -> in.getLong();
            case 2 -> in.getDouble();
            case 3 -> {
                int n = in.getInt();
                String s = new String(in.array(), in.position(), n, StandardCharsets.UTF_8);
                in.position(in.position() + n);
                yield s;
            }
            case 4 -> in.get() != 0;
            default -> throw new IllegalArgumentException("unknown value type " + type);
        };
    }

    private static String getString(ByteBuffer in) {
        int n = in.getShort() & 0xffff;
        String s = new String(in.array(), in.position(), n, StandardCharsets.UTF_8);
        in.position(in.position() + n);
        return s;
    }
}
