package io.railgun.engine.plan;

import io.railgun.engine.aggregate.Aggregator;
import io.railgun.engine.aggregate.CountAggregator;
import io.railgun.engine.aggregate.CountDistinctAggregator;
import io.railgun.engine.aggregate.ExtremumAggregator;
import io.railgun.engine.aggregate.LastAggregator;
import io.railgun.engine.aggregate.MomentsAggregator;
import io.railgun.engine.aggregate.StringExtremumAggregator;
import io.railgun.engine.aggregate.SumLongAggregator;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.query.AggregateFunction;

/** Picks the aggregator implementation for a function and its compiled argument's type. */
final class AggregatorFactory {
    private AggregatorFactory() {}

    static Aggregator create(AggregateFunction function, Evaluator argument) {
        return switch (function) {
            case COUNT -> new CountAggregator(argument);
            case COUNT_DISTINCT -> new CountDistinctAggregator(argument);
            case SUM -> argument.type() == ValueType.LONG
                    ? new SumLongAggregator(argument)
                    : new MomentsAggregator(function, argument);
            case AVG, STDDEV_POP, STDDEV_SAMP, VAR_POP, VAR_SAMP -> new MomentsAggregator(function, argument);
            case MIN, MAX -> argument.type() == ValueType.STRING
                    ? new StringExtremumAggregator(function == AggregateFunction.MAX, argument)
                    : new ExtremumAggregator(function == AggregateFunction.MAX, argument);
            case LAST -> new LastAggregator(argument);
        };
    }

    /** The type of a function's values for an argument of type {@code argType} (SPEC §5). */
    static ValueType resultType(AggregateFunction function, ValueType argType) {
        return switch (function) {
            case COUNT, COUNT_DISTINCT -> ValueType.LONG;
            case SUM -> argType == ValueType.LONG ? ValueType.LONG : ValueType.DOUBLE;
            case AVG, STDDEV_POP, STDDEV_SAMP, VAR_POP, VAR_SAMP -> ValueType.DOUBLE;
            case MIN, MAX, LAST -> argType;
        };
    }
}
