package io.railgun.engine.oracle;

import java.util.List;

/**
 * The oracle's own expression tree (independent of the engine's {@code query.Expr}): what the
 * generators build, {@link SqlRenderer} turns into statement text and {@link SqlInterpreter}
 * evaluates by brute force over boxed values. Field names are lower case.
 */
public sealed interface SqlExpr {

    /** A stream field, by lower-case name. */
    record Field(String name) implements SqlExpr {}

    /** A literal: Long, Double, String, Boolean, or null for NULL. */
    record Literal(Object value) implements SqlExpr {}

    /** Arithmetic negation {@code -x}. */
    record Negate(SqlExpr operand) implements SqlExpr {}

    /** Logical {@code NOT x}. */
    record Not(SqlExpr operand) implements SqlExpr {}

    record Arithmetic(ArithmeticOp op, SqlExpr left, SqlExpr right) implements SqlExpr {}

    record Comparison(ComparisonOp op, SqlExpr left, SqlExpr right) implements SqlExpr {}

    /** {@code AND} when {@code and}, else {@code OR}. */
    record Logical(boolean and, SqlExpr left, SqlExpr right) implements SqlExpr {}

    record In(SqlExpr operand, List<SqlExpr> values, boolean negated) implements SqlExpr {
        public In {
            values = List.copyOf(values);
        }
    }

    record Between(SqlExpr operand, SqlExpr low, SqlExpr high, boolean negated) implements SqlExpr {}

    record IsNull(SqlExpr operand, boolean negated) implements SqlExpr {}

    /** {@code operand [NOT] LIKE 'pattern'}; {@code %} any run of code points, {@code _} exactly one. */
    record Like(SqlExpr operand, String pattern, boolean negated) implements SqlExpr {}

    enum ArithmeticOp {
        ADD("+"), SUBTRACT("-"), MULTIPLY("*"), DIVIDE("/");

        final String symbol;

        ArithmeticOp(String symbol) {
            this.symbol = symbol;
        }
    }

    enum ComparisonOp {
        EQ("="), NE("<>"), LT("<"), LE("<="), GT(">"), GE(">=");

        final String symbol;

        ComparisonOp(String symbol) {
            this.symbol = symbol;
        }
    }

    static Field field(String name) {
        return new Field(name);
    }

    static Literal literal(Object value) {
        return new Literal(value);
    }
}
