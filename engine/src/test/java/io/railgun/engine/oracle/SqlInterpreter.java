package io.railgun.engine.oracle;

import java.util.Locale;
import java.util.function.Function;

/**
 * A deliberately naive reference interpreter of {@link SqlExpr} over boxed values, with SQL
 * three-valued logic: NULL propagates through arithmetic and comparisons; AND/OR/NOT are Kleene
 * logic; {@code x IN (...)} with no match and a NULL in the list is NULL; BETWEEN is inclusive;
 * LONG op LONG is LONG (Java long arithmetic, division truncating toward zero), anything with a
 * DOUBLE is DOUBLE; division by zero (long or double, including -0.0) is NULL.
 */
public final class SqlInterpreter {
    private SqlInterpreter() {}

    /**
     * Evaluates {@code e}; {@code fields} returns a field's value by lower-case name (null when
     * null). Returns Long, Double, String, Boolean or null.
     */
    public static Object eval(SqlExpr e, Function<String, Object> fields) {
        return switch (e) {
            case SqlExpr.Field f -> fields.apply(f.name().toLowerCase(Locale.ROOT));
            case SqlExpr.Literal l -> l.value();
            case SqlExpr.Negate n -> negate(eval(n.operand(), fields));
            case SqlExpr.Not n -> not(eval(n.operand(), fields));
            case SqlExpr.Arithmetic a -> arithmetic(a.op(), eval(a.left(), fields), eval(a.right(), fields));
            case SqlExpr.Comparison c -> comparison(c.op(), eval(c.left(), fields), eval(c.right(), fields));
            case SqlExpr.Logical l -> logical(l.and(), eval(l.left(), fields), eval(l.right(), fields));
            case SqlExpr.In in -> {
                Object v = eval(in.operand(), fields);
                Object r;
                if (v == null) {
                    r = null;
                } else {
                    boolean sawNull = false;
                    boolean found = false;
                    for (SqlExpr item : in.values()) {
                        Object w = eval(item, fields);
                        if (w == null) {
                            sawNull = true;
                        } else if (SqlValues.sqlEquals(v, w)) {
                            found = true;
                        }
                    }
                    r = found ? Boolean.TRUE : sawNull ? null : Boolean.FALSE;
                }
                yield in.negated() ? not(r) : r;
            }
            case SqlExpr.Between b -> {
                Object v = eval(b.operand(), fields);
                Object r = logical(true,
                        comparison(SqlExpr.ComparisonOp.GE, v, eval(b.low(), fields)),
                        comparison(SqlExpr.ComparisonOp.LE, v, eval(b.high(), fields)));
                yield b.negated() ? not(r) : r;
            }
            case SqlExpr.IsNull n -> (eval(n.operand(), fields) == null) != n.negated();
            case SqlExpr.Like l -> {
                Object v = eval(l.operand(), fields);
                Object r = v == null ? null : (Object) SqlValues.like((String) v, l.pattern());
                yield l.negated() ? not(r) : r;
            }
        };
    }

    /** True only when the predicate is TRUE (NULL and FALSE do not pass). */
    public static boolean passes(SqlExpr predicate, Function<String, Object> fields) {
        return predicate == null || Boolean.TRUE.equals(eval(predicate, fields));
    }

    static Object negate(Object v) {
        return switch (v) {
            case null -> null;
            case Long l -> -l;
            case Double d -> -d;
            default -> throw new IllegalArgumentException("cannot negate " + SqlValues.describe(v));
        };
    }

    static Object not(Object v) {
        return v == null ? null : !(Boolean) v;
    }

    static Object arithmetic(SqlExpr.ArithmeticOp op, Object a, Object b) {
        if (a == null || b == null) {
            return null;
        }
        if (a instanceof Long x && b instanceof Long y) {
            return switch (op) {
                case ADD -> x + y;
                case SUBTRACT -> x - y;
                case MULTIPLY -> x * y;
                case DIVIDE -> y == 0 ? null : (Object) (x / y);
            };
        }
        double x = ((Number) a).doubleValue();
        double y = ((Number) b).doubleValue();
        return switch (op) {
            case ADD -> x + y;
            case SUBTRACT -> x - y;
            case MULTIPLY -> x * y;
            case DIVIDE -> y == 0.0 ? null : (Object) (x / y);
        };
    }

    static Object comparison(SqlExpr.ComparisonOp op, Object a, Object b) {
        if (a == null || b == null) {
            return null;
        }
        int c = SqlValues.compare(a, b);
        return switch (op) {
            case EQ -> c == 0;
            case NE -> c != 0;
            case LT -> c < 0;
            case LE -> c <= 0;
            case GT -> c > 0;
            case GE -> c >= 0;
        };
    }

    static Object logical(boolean and, Object a, Object b) {
        Boolean x = (Boolean) a;
        Boolean y = (Boolean) b;
        if (and) {
            if (Boolean.FALSE.equals(x) || Boolean.FALSE.equals(y)) {
                return false;
            }
            return x == null || y == null ? null : Boolean.TRUE;
        }
        if (Boolean.TRUE.equals(x) || Boolean.TRUE.equals(y)) {
            return true;
        }
        return x == null || y == null ? null : Boolean.FALSE;
    }
}
