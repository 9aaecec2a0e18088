package io.railgun.engine.expr;

import io.railgun.engine.query.Expr;
import io.railgun.engine.query.QueryException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Compiles {@code x [NOT] IN (...)}: checks that every item is a literal of a type comparable with
 * {@code x} and builds the primitive lookup structure of the evaluator for x's type. Numeric items are
 * converted so that membership agrees with {@code =} exactly: for a LONG x, a double item counts only
 * when it is a whole number in the long range; for a DOUBLE x, a long item only when a double
 * represents it exactly. Items that can never match are dropped.
 */
final class InListCompiler {
    private static final double TWO_POW_63 = 9.223372036854775808E18;
    private static final String HINT = "list literal values of the field's type, e.g. country IN ('FR', 'DE') or qty IN (1, 2, 3)";

    private InListCompiler() {}

    static Evaluator compile(ExpressionCompiler compiler, Expr.InList in) throws QueryException {
        Evaluator operand = compiler.compileNode(in.operand());
        ValueType type = operand.type();
        if (type == ValueType.NULL) {
            for (Expr item : in.values()) {
                compiler.constant(item, "an IN list item", HINT);
            }
            return ConstantEvaluator.nullOf(ValueType.BOOLEAN);
        }
        boolean hasNull = false;
        List<Object> values = new ArrayList<>();
        for (Expr item : in.values()) {
            Object v = compiler.constant(item, "an IN list item", HINT);
            if (v == null) {
                hasNull = true;
                continue;
            }
            boolean compatible = switch (type) {
                case LONG, DOUBLE -> v instanceof Long || v instanceof Double;
                case STRING -> v instanceof String;
                case BOOLEAN -> v instanceof Boolean;
                case NULL -> true;
            };
            if (!compatible) {
                throw compiler.mismatch(item.position(), "cannot look for " + ExpressionCompiler.describeValue(v)
                        + " in " + compiler.describe(in.operand(), type), HINT);
            }
            values.add(v);
        }
        return switch (type) {
            case LONG -> new LongInListEvaluator(operand, longs(values), hasNull, in.negated());
            case DOUBLE -> new DoubleInListEvaluator(operand, doubles(values), hasNull, in.negated());
            case STRING -> new StringInListEvaluator(operand, values.toArray(String[]::new), hasNull, in.negated());
            case BOOLEAN -> new BooleanInListEvaluator(
                    operand, values.contains(Boolean.TRUE), values.contains(Boolean.FALSE), hasNull, in.negated());
            case NULL -> throw new AssertionError();
        };
    }

    private static long[] longs(List<Object> values) {
        long[] out = new long[values.size()];
        int n = 0;
        for (Object v : values) {
            if (v instanceof Long l) {
                out[n++] = l;
            } else {
                double d = (Double) v;
                if (d == Math.rint(d) && d >= -TWO_POW_63 && d < TWO_POW_63) {
                    out[n++] = (long) d;
                }
            }
        }
        return Arrays.copyOf(out, n);
    }

    private static double[] doubles(List<Object> values) {
        double[] out = new double[values.size()];
        int n = 0;
        for (Object v : values) {
            if (v instanceof Double d) {
                out[n++] = d;
            } else {
                long l = (Long) v;
                double d = l;
                if (d != TWO_POW_63 && (long) d == l) {
                    out[n++] = d;
                }
            }
        }
        return Arrays.copyOf(out, n);
    }
}
