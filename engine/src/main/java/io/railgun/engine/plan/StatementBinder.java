package io.railgun.engine.plan;

import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ExpressionCompiler;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.query.AggregateCall;
import io.railgun.engine.query.AggregateFunction;
import io.railgun.engine.query.MetricNames;
import io.railgun.engine.query.QueryException;
import io.railgun.engine.query.Statement;
import io.railgun.engine.schema.Field;
import io.railgun.engine.schema.StreamDefinition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Checks a parsed statement against its stream and turns it into metric definitions: the stream
 * name, the GROUP BY fields, the argument and filter types, the routing partitioner (the first of
 * the stream's partitioners that the GROUP BY includes) and unique metric names. Nothing is
 * registered here, so a statement is accepted whole or not at all.
 */
public final class StatementBinder {
    private StatementBinder() {}

    /**
     * @param existingNames metric names already defined on the stream (compared case-insensitively)
     */
    public static List<MetricDefinition> bind(StreamDefinition stream, Statement st, Set<String> existingNames)
            throws QueryException {
        String text = st.text();
        if (!st.stream().equalsIgnoreCase(stream.name())) {
            throw new QueryException("wrong_stream", "the statement reads FROM '" + st.stream()
                    + "' but was sent to stream '" + stream.name() + "'", text, text.toUpperCase(Locale.ROOT).indexOf("FROM"),
                    "write FROM " + stream.name() + " or send it to /v1/streams/" + st.stream() + "/metrics");
        }
        Set<String> seenGroup = new HashSet<>();
        for (String g : st.groupBy()) {
            Field f = stream.schema().field(g);
            if (f == null) {
                throw new QueryException("unknown_field", "GROUP BY field '" + g + "' is not a field of stream '"
                        + stream.name() + "'", text, positionOf(text, g), "fields are " + fieldList(stream));
            }
            if (!seenGroup.add(f.name().toLowerCase(Locale.ROOT))) {
                throw new QueryException("syntax_error", "GROUP BY lists '" + g + "' twice", text, positionOf(text, g),
                        "list each field once");
            }
        }
        String partitioner = null;
        for (String p : stream.partitioners()) {
            if (seenGroup.contains(p.toLowerCase(Locale.ROOT))) {
                partitioner = p;
                break;
            }
        }
        if (partitioner == null) {
            throw new QueryException("no_partitioner", "GROUP BY " + String.join(", ", st.groupBy())
                    + " includes none of the stream's partitioners " + stream.partitioners(), text,
                    positionOf(text, st.groupBy().getFirst()),
                    "add one of " + stream.partitioners() + " to the GROUP BY, or add a partitioner to the stream");
        }
        if (st.where() != null) {
            ExpressionCompiler.compilePredicate(st.where(), stream.schema(), text);
        }
        List<MetricDefinition> defs = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (String n : existingNames) {
            names.add(n.toLowerCase(Locale.ROOT));
        }
        for (AggregateCall call : st.aggregates()) {
            ValueType argType = checkArgument(call, stream, text);
            String name = call.alias() != null ? call.alias() : MetricNames.derive(call, st.groupBy(), st.window());
            if (!names.add(name.toLowerCase(Locale.ROOT))) {
                throw new QueryException("duplicate_metric", "a metric named '" + name + "' already exists on stream '"
                        + stream.name() + "'", text, call.position(),
                        "give this aggregate another name with AS, or delete the existing metric first");
            }
            defs.add(new MetricDefinition(name, st, call, partitioner, AggregatorFactory.resultType(call.function(), argType)));
        }
        return defs;
    }

    private static ValueType checkArgument(AggregateCall call, StreamDefinition stream, String text) throws QueryException {
        if (call.argument() == null) {
            return ValueType.NULL; // COUNT(*)
        }
        Evaluator e = ExpressionCompiler.compile(call.argument(), stream.schema(), text);
        ValueType t = e.type();
        AggregateFunction fn = call.function();
        boolean numericOnly = switch (fn) {
            case SUM, AVG, STDDEV_POP, STDDEV_SAMP, VAR_POP, VAR_SAMP -> true;
            default -> false;
        };
        if (numericOnly && !t.isNumeric()) {
            throw new QueryException("type_mismatch", fn.name() + " needs a numeric argument but it is of type "
                    + t.name().toLowerCase(Locale.ROOT), text, call.argument().position(),
                    "use a long or double field or expression, e.g. " + fn.name() + "(amount)");
        }
        if (t == ValueType.NULL && fn != AggregateFunction.COUNT && fn != AggregateFunction.COUNT_DISTINCT) {
            throw new QueryException("type_mismatch", fn.name() + " of NULL has no type", text,
                    call.argument().position(), "aggregate a field or a typed expression");
        }
        return t;
    }

    private static int positionOf(String text, String word) {
        int i = text.toLowerCase(Locale.ROOT).lastIndexOf(word.toLowerCase(Locale.ROOT));
        return Math.max(i, 0);
    }

    private static String fieldList(StreamDefinition stream) {
        List<String> names = new ArrayList<>();
        for (Field f : stream.schema().fields()) {
            names.add(f.name());
        }
        return String.join(", ", names);
    }
}
