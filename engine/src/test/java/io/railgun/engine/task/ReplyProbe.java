package io.railgun.engine.task;

import io.railgun.engine.aggregate.Aggregator;
import io.railgun.engine.expr.ValueType;

/** Test helper: reads one aggregator's value for a record through a one-metric {@link Reply}. */
public final class ReplyProbe {
    private final Reply reply = new Reply();

    public ReplyProbe() {
        reply.layout(new String[] {"m"}, new ValueType[] {ValueType.DOUBLE});
    }

    public Double write(Aggregator aggregator, long[] record) {
        aggregator.write(record, 0, 0, reply, 0);
        return (Double) reply.value(0);
    }
}
