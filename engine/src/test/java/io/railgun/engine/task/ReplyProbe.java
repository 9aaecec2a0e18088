package io.railgun.engine.task;

import io.railgun.engine.aggregate.Aggregator;
import io.railgun.engine.expr.ValueType;

/** Test helper: reads one aggregator's value for a record through a one-metric {@link Reply}. */
public final class ReplyProbe {
    private final Reply reply = new Reply();

    public ReplyProbe() {
        this(ValueType.DOUBLE);
    }

    public ReplyProbe(ValueType type) {
        reply.layout(new String[] {"m"}, new ValueType[] {type});
    }

    /** The value {@code aggregator} writes for the key at {@code slot} whose record starts at {@code base}. */
    public Object value(Aggregator aggregator, long[] record, int base, int slot) {
        aggregator.write(record, base, slot, reply, 0);
        return reply.value(0);
    }

    public Double write(Aggregator aggregator, long[] record) {
        aggregator.write(record, 0, 0, reply, 0);
        return (Double) reply.value(0);
    }
}
