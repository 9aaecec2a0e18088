package io.railgun.engine.task;

import io.railgun.engine.expr.ValueType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A task's reply to one event: its status and the value of each of the task's metrics for the
 * event's group keys at the task's stream time. One instance is reused by a task for every event
 * (valid until its next call), so replying allocates nothing; {@link #value} boxes for callers that
 * need objects (JSON, tests).
 */
public final class Reply {
    private ReplyStatus status = ReplyStatus.COUNTED;
    private long timestamp;
    private long streamTime;
    private int size;
    private String[] names = new String[0];
    private ValueType[] types = new ValueType[0];
    private final Slots slots = new Slots();

    /** Mutable per-metric value slots, written by the task plan's aggregators. */
    static final class Slots {
        boolean[] isNull = new boolean[0];
        long[] longs = new long[0];
        double[] doubles = new double[0];
        byte[][] strings = new byte[0][];
        int[] stringLengths = new int[0];
    }

    void reset(ReplyStatus status, long timestamp, long streamTime) {
        this.status = status;
        this.timestamp = timestamp;
        this.streamTime = streamTime;
    }

    void layout(String[] metricNames, ValueType[] metricTypes) {
        size = metricNames.length;
        names = metricNames;
        types = metricTypes;
        if (slots.isNull.length < size) {
            slots.isNull = new boolean[size];
            slots.longs = new long[size];
            slots.doubles = new double[size];
            slots.strings = Arrays.copyOf(slots.strings, size);
            slots.stringLengths = new int[size];
        }
    }

    /** Written by the task plan's aggregators. */
    public void setNull(int i) {
        slots.isNull[i] = true;
    }

    /** Written by the task plan's aggregators. */
    public void setLong(int i, long v) {
        slots.isNull[i] = false;
        slots.longs[i] = v;
    }

    /** Written by the task plan's aggregators. */
    public void setDouble(int i, double v) {
        slots.isNull[i] = false;
        slots.doubles[i] = v;
    }

    /** Written by the task plan's aggregators. */
    public void setString(int i, byte[] src, int offset, int length) {
        slots.isNull[i] = false;
        byte[] dst = slots.strings[i];
        if (dst == null || dst.length < length) {
            dst = new byte[Math.max(16, length * 2)];
            slots.strings[i] = dst;
        }
        System.arraycopy(src, offset, dst, 0, length);
        slots.stringLengths[i] = length;
    }

    public ReplyStatus status() {
        return status;
    }

    /** The timestamp the event was counted at (its own, or the rewritten one); its own when not counted. */
    public long timestamp() {
        return timestamp;
    }

    /** The task's stream time after this event. */
    public long streamTime() {
        return streamTime;
    }

    /** Number of metrics in the reply. */
    public int size() {
        return size;
    }

    public String name(int i) {
        return names[i];
    }

    public ValueType type(int i) {
        return types[i];
    }

    public boolean isNull(int i) {
        return slots.isNull[i];
    }

    /** LONG value, or BOOLEAN as 0/1. */
    public long longValue(int i) {
        return slots.longs[i];
    }

    public double doubleValue(int i) {
        return slots.doubles[i];
    }

    public byte[] stringBuffer(int i) {
        return slots.strings[i];
    }

    public int stringLength(int i) {
        return slots.stringLengths[i];
    }

    /** The value boxed: Long, Double, String, Boolean, or null. */
    public Object value(int i) {
        if (slots.isNull[i]) {
            return null;
        }
        return switch (types[i]) {
            case LONG -> slots.longs[i];
            case DOUBLE -> slots.doubles[i];
            case BOOLEAN -> slots.longs[i] != 0;
            case STRING -> new String(slots.strings[i], 0, slots.stringLengths[i], StandardCharsets.UTF_8);
            case NULL -> null;
        };
    }
}
