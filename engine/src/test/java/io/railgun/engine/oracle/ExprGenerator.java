package io.railgun.engine.oracle;

import io.railgun.engine.oracle.SqlExpr.ArithmeticOp;
import io.railgun.engine.oracle.SqlExpr.ComparisonOp;
import java.util.ArrayList;
import java.util.List;

/**
 * Random well-typed expressions over the payment fields: numeric arguments for aggregates, and
 * predicates using every operator of SPEC §4 (arithmetic, comparisons, AND/OR/NOT, IN with and
 * without NULL, BETWEEN, IS [NOT] NULL, LIKE with % and _), with literals chosen near the data so
 * filters are selective. Avoids long overflow and inexact long-to-double conversions (|x| &lt; 2^53).
 */
final class ExprGenerator {
    private static final List<Long> LONG_LITERALS = List.of(0L, 1L, 2L, 3L, 10L, 100L, -2L);
    private static final List<Double> DOUBLE_LITERALS = List.of(0.5, 2.5, 100.0, 0.1, 1.1, 1000.0, -1.5, 3.0);
    private static final List<Double> AMOUNT_THRESHOLDS = List.of(1.0, 10.0, 50.5, 100.0, 250.0, 1000.0, 1e6, 12.5);
    private static final List<String> LIKE_PATTERNS = List.of(
            "m%", "%1", "_1", "c_", "%\uD83D\uDE00%", "%", "_", "%.%", "P_", "", "o'%", "_\uD83D\uDE00", "%2%", "__", "E%", "\u00E9");

    private final GenContext g;

    ExprGenerator(GenContext g) {
        this.g = g;
    }

    /** A numeric (LONG or DOUBLE) expression; {@code depth} bounds nesting. */
    SqlExpr numeric(int depth) {
        double u = g.random.nextDouble();
        if (u < 0.40 || depth <= 0) {
            return numericField();
        }
        if (u < 0.62) {
            SqlExpr f = numericField();
            if (f.equals(SqlExpr.field("points"))) {
                // |points| is up to 2^62: only operations that cannot overflow a long
                return g.chance(0.5)
                        ? new SqlExpr.Arithmetic(ArithmeticOp.DIVIDE, f, numericLiteral())
                        : new SqlExpr.Arithmetic(g.chance(0.5) ? ArithmeticOp.ADD : ArithmeticOp.SUBTRACT, f, SqlExpr.literal(g.between(0L, 3L)));
            }
            if (f.equals(SqlExpr.field("ts"))) {
                return g.chance(0.5)
                        ? new SqlExpr.Arithmetic(ArithmeticOp.SUBTRACT, f, SqlExpr.literal(g.timeOrigin))
                        : new SqlExpr.Arithmetic(ArithmeticOp.DIVIDE, f, SqlExpr.literal(1000L));
            }
            return new SqlExpr.Arithmetic(g.oneOf(ArithmeticOp.values()), f, numericLiteral());
        }
        if (u < 0.82) {
            SqlExpr a = smallNumericField();
            SqlExpr b = smallNumericField();
            return new SqlExpr.Arithmetic(g.oneOf(ArithmeticOp.values()), a, b);
        }
        if (u < 0.88) {
            return new SqlExpr.Negate(numeric(depth - 1));
        }
        if (u < 0.91) {
            return numericLiteral();
        }
        SqlExpr left = numeric(depth - 1);
        SqlExpr right = numeric(depth - 1);
        ArithmeticOp op = g.oneOf(ArithmeticOp.values());
        if (containsField(left, "points") || containsField(right, "points")) {
            op = ArithmeticOp.DIVIDE; // no long overflow
        } else if (containsField(left, "ts") || containsField(right, "ts")) {
            op = g.chance(0.5) ? ArithmeticOp.ADD : ArithmeticOp.SUBTRACT; // keeps |x| far below 2^53
        }
        return new SqlExpr.Arithmetic(op, left, right);
    }

    /** A numeric field, ts rarely (its huge mean makes variances ill-conditioned). */
    SqlExpr numericField() {
        List<String> options = new ArrayList<>();
        addWeighted(options, "amount", 5);
        addWeighted(options, "balance", 2);
        addWeighted(options, "qty", 3);
        addWeighted(options, "mcc", 1);
        addWeighted(options, "points", 1);
        if (g.chance(0.08)) {
            options.add("ts");
        }
        return options.isEmpty() ? SqlExpr.field("amount") : SqlExpr.field(g.oneOf(options));
    }

    private SqlExpr smallNumericField() {
        List<String> options = g.present("amount", "balance", "qty", "mcc");
        return SqlExpr.field(g.oneOf(options));
    }

    private void addWeighted(List<String> options, String field, int weight) {
        if (g.has(field)) {
            for (int i = 0; i < weight; i++) {
                options.add(field);
            }
        }
    }

    SqlExpr numericLiteral() {
        return g.chance(0.5) ? SqlExpr.literal(g.oneOf(LONG_LITERALS)) : SqlExpr.literal(g.oneOf(DOUBLE_LITERALS));
    }

    /** Any-typed argument for COUNT, COUNT(DISTINCT), MIN, MAX, LAST. */
    SqlExpr anyValue() {
        double u = g.random.nextDouble();
        List<String> strings = g.present("card", "merchant", "country");
        if (u < 0.45) {
            return numeric(1);
        }
        if (u < 0.80) {
            return SqlExpr.field(g.oneOf(strings));
        }
        if (u < 0.92 && g.has("online")) {
            return SqlExpr.field("online");
        }
        if (u < 0.96) {
            return SqlExpr.field("ts");
        }
        return predicate(1);
    }

    /** A boolean predicate of nesting depth at most {@code depth}. */
    SqlExpr predicate(int depth) {
        double u = g.random.nextDouble();
        if (depth > 0 && u < 0.28) {
            return new SqlExpr.Logical(g.chance(0.5), predicate(depth - 1), predicate(depth - 1));
        }
        if (depth > 0 && u < 0.36) {
            return new SqlExpr.Not(predicate(depth - 1));
        }
        return atom();
    }

    private SqlExpr atom() {
        double u = g.random.nextDouble();
        if (u < 0.28) {
            return numericComparison();
        }
        if (u < 0.42) {
            return new SqlExpr.Comparison(g.oneOf(ComparisonOp.values()), stringField(), stringLiteral());
        }
        if (u < 0.47 && g.has("online")) {
            return switch (g.random.nextInt(3)) {
                case 0 -> SqlExpr.field("online");
                case 1 -> new SqlExpr.Comparison(ComparisonOp.EQ, SqlExpr.field("online"), SqlExpr.literal(g.chance(0.5)));
                default -> new SqlExpr.Comparison(ComparisonOp.NE, SqlExpr.field("online"), SqlExpr.literal(g.chance(0.5)));
            };
        }
        if (u < 0.60) {
            return in();
        }
        if (u < 0.70) {
            return between();
        }
        if (u < 0.80) {
            SqlExpr operand = g.chance(0.7) ? SqlExpr.field(g.oneOf(new ArrayList<>(g.fields.keySet()))) : numeric(1);
            return new SqlExpr.IsNull(operand, g.chance(0.5));
        }
        if (u < 0.94) {
            return new SqlExpr.Like(stringField(), g.oneOf(LIKE_PATTERNS), g.chance(0.3));
        }
        // a comparison with NULL: always NULL, so never passes (nor does its NOT)
        return new SqlExpr.Comparison(g.oneOf(ComparisonOp.values()), numericField(), SqlExpr.literal(null));
    }

    private SqlExpr numericComparison() {
        ComparisonOp op = g.oneOf(ComparisonOp.values());
        SqlExpr left = g.chance(0.7) ? numericField() : numeric(1);
        if (g.chance(0.25)) {
            return new SqlExpr.Comparison(op, left, smallNumericField());
        }
        return new SqlExpr.Comparison(op, left, thresholdFor(left));
    }

    /** A literal near the values of the expression's main field, so comparisons split the data. */
    private SqlExpr thresholdFor(SqlExpr e) {
        String field = mainField(e);
        return switch (field == null ? "" : field) {
            case "amount" -> SqlExpr.literal(g.oneOf(AMOUNT_THRESHOLDS));
            case "balance" -> SqlExpr.literal(g.oneOf(0.0, -10.5, 10.0, 25.0));
            case "qty" -> SqlExpr.literal(g.chance(0.8) ? (Object) g.between(0L, 3L) : (Object) 1.5);
            case "mcc" -> SqlExpr.literal(g.oneOf(g.mccs));
            case "points" -> SqlExpr.literal(g.oneOf(0L, 10L, -10L, 1L << 61, -(1L << 61)));
            case "ts" -> e instanceof SqlExpr.Field
                    ? SqlExpr.literal(g.timeOrigin + g.between(0L, 100L) * g.scaleMs)
                    : numericLiteral();
            default -> numericLiteral();
        };
    }

    private static String mainField(SqlExpr e) {
        return switch (e) {
            case SqlExpr.Field f -> f.name();
            case SqlExpr.Arithmetic a -> mainField(a.left());
            case SqlExpr.Negate n -> mainField(n.operand());
            default -> null;
        };
    }

    private static boolean containsField(SqlExpr e, String field) {
        return switch (e) {
            case SqlExpr.Field f -> f.name().equals(field);
            case SqlExpr.Arithmetic a -> containsField(a.left(), field) || containsField(a.right(), field);
            case SqlExpr.Negate n -> containsField(n.operand(), field);
            default -> false;
        };
    }

    private SqlExpr stringField() {
        return SqlExpr.field(g.oneOf(g.present("card", "merchant", "country")));
    }

    private SqlExpr stringLiteral() {
        double u = g.random.nextDouble();
        if (u < 0.3) {
            return SqlExpr.literal(g.oneOf(g.cards));
        }
        if (u < 0.55) {
            return SqlExpr.literal(g.oneOf(g.merchants));
        }
        if (u < 0.8) {
            return SqlExpr.literal(g.oneOf(g.countries));
        }
        return SqlExpr.literal(g.oneOf("M", "c", "m2", "\uFFFF", "\uD83D\uDE00", "d", ""));
    }

    private SqlExpr in() {
        boolean negated = g.chance(0.3);
        List<SqlExpr> values = new ArrayList<>();
        int n = g.between(1, 4);
        SqlExpr operand;
        if (g.chance(0.5)) {
            operand = stringField();
            for (int i = 0; i < n; i++) {
                values.add(stringLiteral());
            }
        } else {
            operand = numericField();
            for (int i = 0; i < n; i++) {
                values.add(thresholdFor(operand));
            }
        }
        if (g.chance(0.2)) {
            values.add(g.random.nextInt(values.size() + 1), SqlExpr.literal(null));
        }
        return new SqlExpr.In(operand, values, negated);
    }

    private SqlExpr between() {
        boolean negated = g.chance(0.3);
        if (g.chance(0.3)) {
            SqlExpr a = stringLiteral();
            SqlExpr b = stringLiteral();
            return new SqlExpr.Between(stringField(), a, b, negated);
        }
        SqlExpr operand = numericField();
        SqlExpr a = thresholdFor(operand);
        SqlExpr b = thresholdFor(operand);
        if (g.chance(0.8) && a instanceof SqlExpr.Literal la && b instanceof SqlExpr.Literal lb
                && la.value() != null && lb.value() != null && SqlValues.compare(la.value(), lb.value()) > 0) {
            SqlExpr t = a;
            a = b;
            b = t;
        }
        return new SqlExpr.Between(operand, a, b, negated);
    }
}
