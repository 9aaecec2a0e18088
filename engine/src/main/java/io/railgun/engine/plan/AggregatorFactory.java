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
import java.util.ArrayList;
import java.util.List;
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

    /**
     * The name of the state a function of an argument is computed from, in the plan's aggregator
     * keys: functions with the same state name, argument, window, filter and GROUP BY share one
     * aggregator. SUM of doubles and AVG share {@code MOMENTS}; the variances share
     * {@code MOMENTS2}; every other function has its own state, named after it.
     *
     * @param resultType the metric's result type (tells SUM of longs, a plain sum, from SUM of doubles)
     */
    static String stateName(AggregateFunction function, ValueType resultType) {
        return switch (function) {
            case SUM -> resultType == ValueType.LONG ? function.name() : "MOMENTS";
            case AVG -> "MOMENTS";
            case VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP -> "MOMENTS2";
            default -> function.name();
        };
    }

    /**
     * The functions whose own aggregators held a shared state before states were shared (their keys
     * named the function): state saved under those keys is restored into the shared aggregator,
     * which has the same layout. Empty for a state of one function.
     */
    static List<AggregateFunction> formerOwners(String stateName, ValueType argType) {
        List<AggregateFunction> owners = new ArrayList<>();
        switch (stateName) {
            case "MOMENTS" -> {
                if (argType != ValueType.LONG) {
                    owners.add(AggregateFunction.SUM); // SUM of longs was, and is, a SumLongAggregator
                }
                owners.add(AggregateFunction.AVG);
            }
            case "MOMENTS2" -> owners.addAll(List.of(AggregateFunction.VAR_POP, AggregateFunction.VAR_SAMP,
                    AggregateFunction.STDDEV_POP, AggregateFunction.STDDEV_SAMP));
            default -> { }
        }
        return owners;
    }

    /** What writes {@code function}'s values from a (possibly shared) state aggregator. */
    static Aggregator reader(Aggregator state, AggregateFunction function) {
        return state instanceof MomentsAggregator m ? m.reader(function) : state;
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
