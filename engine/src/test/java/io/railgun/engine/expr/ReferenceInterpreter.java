package io.railgun.engine.expr;

import io.railgun.engine.query.Expr;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;

/**
 * A deliberately naive SQL interpreter over boxed values, written independently of the compiler:
 * numbers compare through BigDecimal (exact), strings by code point, LIKE by dynamic programming over
 * code points. Non-finite double results and division by zero are NULL, as in the compiler.
 */
final class ReferenceInterpreter {
    private ReferenceInterpreter() {}

    static Object eval(Expr e, Map<String, Object> row) {
        return switch (e) {
            case Expr.FieldRef f -> row.get(f.name().toLowerCase(Locale.ROOT));
            case Expr.Literal l -> l.value();
            case Expr.Unary u -> {
                Object v = eval(u.operand(), row);
                if (v == null) {
                    yield null;
                }
                if (u.op() == Expr.UnaryOp.NOT) {
                    yield !(Boolean) v;
                }
                yield v instanceof Long l ? (Object) (-l) : (Object) (-(Double) v);
            }
            case Expr.Binary b -> binary(b, row);
            case Expr.InList in -> {
                Object v = eval(in.operand(), row);
                if (v == null) {
                    yield null;
                }
                boolean found = false;
                boolean sawNull = false;
                for (Expr item : in.values()) {
                    Object w = eval(item, row);
                    if (w == null) {
                        sawNull = true;
                    } else if (compare(v, w) == 0) {
                        found = true;
                    }
                }
                Boolean r = found ? Boolean.TRUE : sawNull ? null : Boolean.FALSE;
                yield in.negated() ? not(r) : r;
            }
            case Expr.Between b -> {
                Object v = eval(b.operand(), row);
                Object lo = eval(b.low(), row);
                Object hi = eval(b.high(), row);
                Boolean ge = v == null || lo == null ? null : compare(v, lo) >= 0;
                Boolean le = v == null || hi == null ? null : compare(v, hi) <= 0;
                Boolean r = and(ge, le);
                yield b.negated() ? not(r) : r;
            }
            case Expr.IsNull n -> (eval(n.operand(), row) == null) != n.negated();
            case Expr.Like l -> {
                Object v = eval(l.operand(), row);
                Object p = eval(l.pattern(), row);
                if (v == null || p == null) {
                    yield null;
                }
                boolean m = like((String) v, (String) p);
                yield l.negated() != m;
            }
        };
    }

    private static Object binary(Expr.Binary b, Map<String, Object> row) {
        Object x = eval(b.left(), row);
        Object y = eval(b.right(), row);
        Expr.BinaryOp op = b.op();
        if (op == Expr.BinaryOp.AND) {
            return and((Boolean) x, (Boolean) y);
        }
        if (op == Expr.BinaryOp.OR) {
            if (Boolean.TRUE.equals(x) || Boolean.TRUE.equals(y)) {
                return true;
            }
            return x == null || y == null ? null : Boolean.FALSE;
        }
        if (x == null || y == null) {
            return null;
        }
        if (op.isComparison()) {
            int c = compare(x, y);
            return switch (op) {
                case EQ -> c == 0;
                case NE -> c != 0;
                case LT -> c < 0;
                case LE -> c <= 0;
                case GT -> c > 0;
                default -> c >= 0;
            };
        }
        if (x instanceof Long l && y instanceof Long m) {
            return switch (op) {
                case ADD -> l + m;
                case SUBTRACT -> l - m;
                case MULTIPLY -> l * m;
                default -> m == 0 ? null : l / m;
            };
        }
        double p = ((Number) x).doubleValue();
        double q = ((Number) y).doubleValue();
        double r = switch (op) {
            case ADD -> p + q;
            case SUBTRACT -> p - q;
            case MULTIPLY -> p * q;
            default -> q == 0 ? Double.NaN : p / q;
        };
        return Double.isFinite(r) ? r : null;
    }

    static Boolean and(Boolean x, Boolean y) {
        if (Boolean.FALSE.equals(x) || Boolean.FALSE.equals(y)) {
            return false;
        }
        return x == null || y == null ? null : Boolean.TRUE;
    }

    static Boolean not(Boolean x) {
        return x == null ? null : !x;
    }

    static int compare(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return Integer.signum(decimal(x).compareTo(decimal(y)));
        }
        if (a instanceof String x && b instanceof String y) {
            int[] p = x.codePoints().toArray();
            int[] q = y.codePoints().toArray();
            return Integer.signum(java.util.Arrays.compare(p, q));
        }
        return Boolean.compare((Boolean) a, (Boolean) b);
    }

    private static BigDecimal decimal(Number n) {
        return n instanceof Long l ? BigDecimal.valueOf(l) : new BigDecimal((Double) n);
    }

    static boolean like(String value, String pattern) {
        int[] s = value.codePoints().toArray();
        int[] p = pattern.codePoints().toArray();
        boolean[][] m = new boolean[s.length + 1][p.length + 1];
        m[s.length][p.length] = true;
        for (int j = p.length - 1; j >= 0; j--) {
            m[s.length][j] = p[j] == '%' && m[s.length][j + 1];
        }
        for (int i = s.length - 1; i >= 0; i--) {
            for (int j = p.length - 1; j >= 0; j--) {
                m[i][j] = p[j] == '%' ? m[i][j + 1] || m[i + 1][j] : (p[j] == '_' || p[j] == s[i]) && m[i + 1][j + 1];
            }
        }
        return m[0][0];
    }
}
