package io.railgun.engine.query;

import java.util.List;

/**
 * Expression syntax tree of the query language (SPEC §4). Produced once by {@link QueryParser}, then
 * compiled by {@link io.railgun.engine.expr.ExpressionCompiler}; never walked per event.
 * {@code position} is the 0-based character offset in the statement text where the node starts.
 */
public sealed interface Expr {
    int position();

    /** A reference to a stream field, by name (case-insensitive). */
    record FieldRef(String name, int position) implements Expr {}

    /** A literal: {@code Long}, {@code Double}, {@code String}, {@code Boolean}, or null for NULL. */
    record Literal(Object value, int position) implements Expr {}

    /** {@code NOT x} or {@code -x}. */
    record Unary(UnaryOp op, Expr operand, int position) implements Expr {}

    /** Arithmetic, comparison or logical binary operator. */
    record Binary(BinaryOp op, Expr left, Expr right, int position) implements Expr {}

    /** {@code x [NOT] IN (v1, v2, ...)}. */
    record InList(Expr operand, List<Expr> values, boolean negated, int position) implements Expr {}

    /** {@code x [NOT] BETWEEN low AND high} (inclusive both ends). */
    record Between(Expr operand, Expr low, Expr high, boolean negated, int position) implements Expr {}

    /** {@code x IS [NOT] NULL}. */
    record IsNull(Expr operand, boolean negated, int position) implements Expr {}

    /** {@code x [NOT] LIKE 'pattern'} with {@code %} (any run) and {@code _} (one character). */
    record Like(Expr operand, Expr pattern, boolean negated, int position) implements Expr {}

    enum UnaryOp { NOT, NEGATE }

    enum BinaryOp {
        ADD("+"), SUBTRACT("-"), MULTIPLY("*"), DIVIDE("/"),
        EQ("="), NE("<>"), LT("<"), LE("<="), GT(">"), GE(">="),
        AND("AND"), OR("OR");

        private final String symbol;

        BinaryOp(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }

        public boolean isArithmetic() {
            return ordinal() <= DIVIDE.ordinal();
        }

        public boolean isComparison() {
            return ordinal() >= EQ.ordinal() && ordinal() <= GE.ordinal();
        }

        public boolean isLogical() {
            return this == AND || this == OR;
        }
    }
}
