package io.railgun.engine.expr;

import io.railgun.engine.query.Expr;
import io.railgun.engine.query.Expr.BinaryOp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Random well-typed expressions over {@link Rows#SCHEMA}, random rows with nulls, and SQL rendering. */
final class RandomExpressions {
    private static final long[] LONGS = {0, 1, -1, 2, 3, 7, -7, 10, Long.MAX_VALUE, Long.MIN_VALUE, 9007199254740993L,
            9007199254740992L, -9007199254740993L, 4611686018427387904L};
    private static final double[] DOUBLES = {0.0, -0.0, 0.5, -2.5, 1.0, 3.0, 7.0, 1e308, -1e308, 9.007199254740992E15,
            9.223372036854775807E18, -9.223372036854775808E18, 1e19, 0.1, 1e-300};
    private static final String[] STRINGS = {"", "a", "b", "ab", "abc", "é", "日", "日本", "\uD83D\uDE00", "a\uD83D\uDE00", "aé", "\uFFFF", "B"};
    private static final String PATTERN_CHARS = "ab%_é日\uD83D\uDE00";

    private final Random random;

    RandomExpressions(long seed) {
        this.random = new Random(seed);
    }

    enum Kind { LONG, DOUBLE, STRING, BOOLEAN }

    Expr bool(int depth) {
        int choice = depth <= 0 ? random.nextInt(2) : random.nextInt(12);
        return switch (choice) {
            case 0 -> random.nextInt(4) == 0 ? lit(random.nextInt(3) == 0 ? null : random.nextBoolean())
                    : field(random.nextBoolean() ? "b" : "b2");
            case 1 -> new Expr.IsNull(any(depth - 1), random.nextBoolean(), 0);
            case 2, 3 -> {
                Kind k = Kind.values()[random.nextInt(4)];
                BinaryOp op = BinaryOp.values()[BinaryOp.EQ.ordinal() + random.nextInt(6)];
                Expr left = of(comparable(k), depth - 1);
                Expr right = of(comparable(k), depth - 1);
                yield new Expr.Binary(op, left, right, 0);
            }
            case 4, 5 -> new Expr.Binary(random.nextBoolean() ? BinaryOp.AND : BinaryOp.OR, bool(depth - 1), bool(depth - 1), 0);
            case 6 -> new Expr.Unary(Expr.UnaryOp.NOT, bool(depth - 1), 0);
            case 7, 8 -> {
                Kind k = random.nextBoolean() ? Kind.STRING : random.nextBoolean() ? Kind.LONG : Kind.DOUBLE;
                List<Expr> items = new ArrayList<>();
                int n = 1 + random.nextInt(5);
                for (int i = 0; i < n; i++) {
                    items.add(random.nextInt(8) == 0 ? lit(null) : literal(comparable(k)));
                }
                yield new Expr.InList(of(k, depth - 1), items, random.nextBoolean(), 0);
            }
            case 9 -> {
                Kind k = comparable(Kind.values()[random.nextInt(4)]);
                yield new Expr.Between(of(k, depth - 1), of(comparable(k), depth - 1), of(comparable(k), depth - 1),
                        random.nextBoolean(), 0);
            }
            default -> new Expr.Like(of(Kind.STRING, depth - 1), lit(random.nextInt(10) == 0 ? null : pattern()),
                    random.nextBoolean(), 0);
        };
    }

    /** A kind comparable with {@code k}: numbers mix. */
    private Kind comparable(Kind k) {
        if (k == Kind.LONG || k == Kind.DOUBLE) {
            return random.nextBoolean() ? Kind.LONG : Kind.DOUBLE;
        }
        return k;
    }

    Expr of(Kind k, int depth) {
        return switch (k) {
            case BOOLEAN -> bool(depth);
            case STRING -> random.nextInt(3) == 0 ? literal(Kind.STRING) : random.nextInt(12) == 0 ? lit(null)
                    : field(random.nextBoolean() ? "s" : "s2");
            case LONG, DOUBLE -> number(k, depth);
        };
    }

    private Expr any(int depth) {
        return of(Kind.values()[random.nextInt(4)], depth);
    }

    private Expr number(Kind k, int depth) {
        int choice = depth <= 0 ? random.nextInt(3) : random.nextInt(7);
        return switch (choice) {
            case 0 -> literal(k);
            case 1 -> k == Kind.LONG ? field(random.nextBoolean() ? "l" : random.nextBoolean() ? "l2" : "t")
                    : field(random.nextBoolean() ? "d" : "d2");
            case 2 -> random.nextInt(6) == 0 ? lit(null) : literal(k);
            case 3 -> new Expr.Unary(Expr.UnaryOp.NEGATE, number(k, depth - 1), 0);
            default -> {
                BinaryOp op = BinaryOp.values()[random.nextInt(4)];
                Kind left = k == Kind.LONG ? Kind.LONG : random.nextBoolean() ? Kind.DOUBLE : Kind.LONG;
                Kind right = k == Kind.LONG ? Kind.LONG : left == Kind.LONG ? Kind.DOUBLE : random.nextBoolean() ? Kind.DOUBLE : Kind.LONG;
                yield new Expr.Binary(op, number(left, depth - 1), number(right, depth - 1), 0);
            }
        };
    }

    private Expr literal(Kind k) {
        return switch (k) {
            case LONG -> lit(random.nextBoolean() ? LONGS[random.nextInt(LONGS.length)] : (long) random.nextInt(21) - 10);
            case DOUBLE -> lit(random.nextBoolean() ? DOUBLES[random.nextInt(DOUBLES.length)] : (random.nextInt(41) - 20) / 4.0);
            case STRING -> lit(STRINGS[random.nextInt(STRINGS.length)]);
            case BOOLEAN -> lit(random.nextBoolean());
        };
    }

    private String pattern() {
        int[] cps = PATTERN_CHARS.codePoints().toArray();
        StringBuilder sb = new StringBuilder();
        int n = random.nextInt(5);
        for (int i = 0; i < n; i++) {
            sb.appendCodePoint(cps[random.nextInt(cps.length)]);
        }
        return sb.toString();
    }

    Map<String, Object> row() {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("l", nullOr(() -> random.nextBoolean() ? LONGS[random.nextInt(LONGS.length)] : (long) random.nextInt(21) - 10));
        row.put("l2", nullOr(() -> (long) random.nextInt(7) - 3));
        row.put("t", nullOr(() -> random.nextBoolean() ? 0L : 1_700_000_000_000L + random.nextInt(1000)));
        row.put("d", nullOr(() -> random.nextBoolean() ? DOUBLES[random.nextInt(DOUBLES.length)] : (random.nextInt(41) - 20) / 4.0));
        row.put("d2", nullOr(() -> random.nextGaussian() * 10));
        row.put("s", nullOr(() -> STRINGS[random.nextInt(STRINGS.length)]));
        row.put("s2", nullOr(() -> STRINGS[random.nextInt(STRINGS.length)] + STRINGS[random.nextInt(STRINGS.length)]));
        row.put("b", nullOr(random::nextBoolean));
        row.put("b2", nullOr(random::nextBoolean));
        return row;
    }

    private Object nullOr(java.util.function.Supplier<Object> value) {
        return random.nextInt(4) == 0 ? null : value.get();
    }

    private static Expr lit(Object v) {
        return new Expr.Literal(v, 0);
    }

    private static Expr field(String name) {
        return new Expr.FieldRef(name, 0);
    }

    /** Fully parenthesised query-language text of {@code e}. */
    static String render(Expr e) {
        return switch (e) {
            case Expr.FieldRef f -> f.name();
            case Expr.Literal l -> switch (l.value()) {
                case null -> "NULL";
                case String s -> "'" + s.replace("'", "''") + "'";
                case Boolean b -> b ? "TRUE" : "FALSE";
                default -> l.value().toString().startsWith("-") ? "(" + l.value() + ")" : l.value().toString();
            };
            case Expr.Unary u -> u.op() == Expr.UnaryOp.NOT ? "(NOT " + render(u.operand()) + ")" : "(- " + render(u.operand()) + ")";
            case Expr.Binary b -> "(" + render(b.left()) + " " + b.op().symbol() + " " + render(b.right()) + ")";
            case Expr.InList in -> "(" + render(in.operand()) + (in.negated() ? " NOT IN (" : " IN (")
                    + String.join(", ", in.values().stream().map(RandomExpressions::render).toList()) + "))";
            case Expr.Between b -> "(" + render(b.operand()) + (b.negated() ? " NOT BETWEEN " : " BETWEEN ")
                    + render(b.low()) + " AND " + render(b.high()) + ")";
            case Expr.IsNull n -> "(" + render(n.operand()) + (n.negated() ? " IS NOT NULL)" : " IS NULL)");
            case Expr.Like l -> "(" + render(l.operand()) + (l.negated() ? " NOT LIKE " : " LIKE ") + render(l.pattern()) + ")";
        };
    }
}
