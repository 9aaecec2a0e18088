package io.railgun.engine.query;

import io.railgun.engine.query.Expr.BinaryOp;
import io.railgun.engine.query.Expr.UnaryOp;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Recursive-descent parser of SQL expressions (SPEC §4), lowest precedence first:
 *
 * <pre>
 * or         := and {OR and}
 * and        := not {AND not}
 * not        := NOT not | predicate
 * predicate  := additive [ cmpOp additive | IS [NOT] NULL | [NOT] IN ( additive {, additive} )
 *                        | [NOT] BETWEEN additive AND additive | [NOT] LIKE ('pattern' | NULL) ]
 * additive   := multiplicative {(+|-) multiplicative}
 * multiplicative := unary {(*|/) unary}
 * unary      := - unary | primary           (- of a number literal is folded into the literal)
 * primary    := number | 'string' | TRUE | FALSE | NULL | field | ( or )
 * </pre>
 *
 * Comparisons do not chain ({@code a < b < c} is an error). Nesting of parentheses, NOT and unary minus
 * is limited to {@value #MAX_NESTING} levels and the tree depth to {@value #MAX_DEPTH}, so neither this
 * parser nor the compiler can overflow the stack. One instance per expression; not thread-safe.
 */
final class ExpressionParser {
    static final int MAX_NESTING = 100;
    static final int MAX_DEPTH = 500;
    private static final String EXPR_HINT = "an expression looks like amount > 100 AND country IN ('FR', 'DE')";

    private final TokenCursor in;
    private int nesting;

    private ExpressionParser(TokenCursor in) {
        this.in = in;
    }

    /** Parses one expression at the cursor, leaving the cursor on the first token after it. */
    static Expr parse(TokenCursor in) throws QueryException {
        Expr e = new ExpressionParser(in).or();
        checkDepth(e, in);
        return e;
    }

    private Expr or() throws QueryException {
        int start = in.peek().position();
        Expr left = and();
        while (in.acceptKeyword("OR")) {
            left = new Expr.Binary(BinaryOp.OR, left, and(), start);
        }
        return left;
    }

    private Expr and() throws QueryException {
        int start = in.peek().position();
        Expr left = not();
        while (in.acceptKeyword("AND")) {
            left = new Expr.Binary(BinaryOp.AND, left, not(), start);
        }
        return left;
    }

    private Expr not() throws QueryException {
        if (in.atKeyword("NOT")) {
            int start = in.next().position();
            enter(start);
            Expr operand = not();
            nesting--;
            return new Expr.Unary(UnaryOp.NOT, operand, start);
        }
        return predicate();
    }

    private Expr predicate() throws QueryException {
        int start = in.peek().position();
        Expr left = additive();
        BinaryOp cmp = comparison(in.peek().kind());
        if (cmp != null) {
            in.next();
            Expr right = additive();
            if (comparison(in.peek().kind()) != null) {
                throw in.error("comparisons cannot be chained", in.peek().position(),
                        "combine them with AND, e.g. a < b AND b < c");
            }
            return new Expr.Binary(cmp, left, right, start);
        }
        if (in.acceptKeyword("IS")) {
            boolean negated = in.acceptKeyword("NOT");
            in.expectKeyword("NULL", negated ? "NULL after IS NOT" : "NULL or NOT NULL after IS",
                    "write x IS NULL or x IS NOT NULL");
            return new Expr.IsNull(left, negated, start);
        }
        boolean negated = false;
        if (in.atKeyword("NOT")) {
            Token after = in.peek(1);
            if (!after.isKeyword("IN") && !after.isKeyword("BETWEEN") && !after.isKeyword("LIKE")) {
                in.next();
                throw in.expected("IN, BETWEEN or LIKE after NOT", "write x NOT IN (...), x NOT BETWEEN a AND b, "
                        + "x NOT LIKE '...', or put NOT before a condition: NOT (x = 1)");
            }
            in.next();
            negated = true;
        }
        if (in.acceptKeyword("IN")) {
            return new Expr.InList(left, inList(), negated, start);
        }
        if (in.acceptKeyword("BETWEEN")) {
            Expr low = additive();
            in.expectKeyword("AND", "AND in BETWEEN ... AND ...", "write x BETWEEN 10 AND 20");
            Expr high = additive();
            return new Expr.Between(left, low, high, negated, start);
        }
        if (in.acceptKeyword("LIKE")) {
            Token pattern = in.peek();
            if (pattern.isKeyword("NULL")) {
                in.next();
                return new Expr.Like(left, new Expr.Literal(null, pattern.position()), negated, start);
            }
            in.expect(TokenKind.STRING, "a string pattern after LIKE",
                    "write x LIKE 'abc%': % matches any run of characters, _ exactly one");
            return new Expr.Like(left, new Expr.Literal(pattern.text(), pattern.position()), negated, start);
        }
        return left;
    }

    private static BinaryOp comparison(TokenKind kind) {
        return switch (kind) {
            case EQ -> BinaryOp.EQ;
            case NE -> BinaryOp.NE;
            case LT -> BinaryOp.LT;
            case LE -> BinaryOp.LE;
            case GT -> BinaryOp.GT;
            case GE -> BinaryOp.GE;
            default -> null;
        };
    }

    private List<Expr> inList() throws QueryException {
        in.expect(TokenKind.LPAREN, "'(' after IN", "write x IN ('a', 'b')");
        List<Expr> values = new ArrayList<>();
        do {
            values.add(additive());
        } while (in.accept(TokenKind.COMMA));
        in.expect(TokenKind.RPAREN, "',' or ')' in the IN list", "write x IN ('a', 'b')");
        return values;
    }

    private Expr additive() throws QueryException {
        int start = in.peek().position();
        Expr left = multiplicative();
        while (true) {
            if (in.accept(TokenKind.PLUS)) {
                left = new Expr.Binary(BinaryOp.ADD, left, multiplicative(), start);
            } else if (in.accept(TokenKind.MINUS)) {
                left = new Expr.Binary(BinaryOp.SUBTRACT, left, multiplicative(), start);
            } else {
                return left;
            }
        }
    }

    private Expr multiplicative() throws QueryException {
        int start = in.peek().position();
        Expr left = unary();
        while (true) {
            if (in.accept(TokenKind.STAR)) {
                left = new Expr.Binary(BinaryOp.MULTIPLY, left, unary(), start);
            } else if (in.accept(TokenKind.SLASH)) {
                left = new Expr.Binary(BinaryOp.DIVIDE, left, unary(), start);
            } else {
                return left;
            }
        }
    }

    private Expr unary() throws QueryException {
        if (!in.at(TokenKind.MINUS)) {
            return primary();
        }
        int start = in.next().position();
        if (in.at(TokenKind.INTEGER)) {
            // Parsed with its sign so that -9223372036854775808 is representable.
            return new Expr.Literal(integer(in.next(), "-"), start);
        }
        enter(start);
        Expr operand = unary();
        nesting--;
        if (operand instanceof Expr.Literal lit && lit.value() instanceof Long v) {
            return new Expr.Literal(-v, start);
        }
        if (operand instanceof Expr.Literal lit && lit.value() instanceof Double v) {
            return new Expr.Literal(-v, start);
        }
        return new Expr.Unary(UnaryOp.NEGATE, operand, start);
    }

    private Expr primary() throws QueryException {
        Token t = in.peek();
        switch (t.kind()) {
            case INTEGER -> {
                in.next();
                return new Expr.Literal(integer(t, ""), t.position());
            }
            case DECIMAL -> {
                in.next();
                return new Expr.Literal(Double.parseDouble(t.text()), t.position());
            }
            case STRING -> {
                in.next();
                return new Expr.Literal(t.text(), t.position());
            }
            case QUOTED_IDENT -> {
                in.next();
                return new Expr.FieldRef(t.text(), t.position());
            }
            case LPAREN -> {
                in.next();
                enter(t.position());
                Expr inner = or();
                nesting--;
                in.expect(TokenKind.RPAREN, "')' to close the '('",
                        "every '(' needs a matching ')'");
                return inner;
            }
            case IDENT -> {
                return identifier(t);
            }
            default -> throw missingExpression(t);
        }
    }

    private Expr identifier(Token t) throws QueryException {
        if (t.isKeyword("TRUE") || t.isKeyword("FALSE")) {
            in.next();
            return new Expr.Literal(t.isKeyword("TRUE"), t.position());
        }
        if (t.isKeyword("NULL")) {
            in.next();
            return new Expr.Literal(null, t.position());
        }
        if (Keywords.isReserved(t.text())) {
            throw missingExpression(t);
        }
        if (in.peek(1).kind() == TokenKind.LPAREN) {
            if (AggregateNames.lookup(t.text()) != null) {
                throw in.error("the aggregate " + t.text() + " cannot be used inside an expression", t.position(),
                        "aggregates go in the SELECT list; WHERE and aggregate arguments work on single events");
            }
            throw in.error("unknown_function", "unknown function '" + t.text() + "'", t.position(),
                    "expressions support + - * /, comparisons, AND, OR, NOT, IN, BETWEEN, IS NULL and LIKE, "
                            + "but no functions");
        }
        in.next();
        return new Expr.FieldRef(t.text(), t.position());
    }

    private QueryException missingExpression(Token t) {
        Token prev = in.previous();
        String after = prev == null ? "" : " after " + prev.describe();
        return in.error("expected an expression" + after + " but found " + t.describe(), t.position(), EXPR_HINT);
    }

    private long integer(Token t, String sign) throws QueryException {
        try {
            return Long.parseLong(sign + t.text());
        } catch (NumberFormatException e) {
            throw in.error("integer " + sign + t.text() + " is out of range", t.position(),
                    "integers must fit in 64 bits (at most 9223372036854775807); write a decimal such as 1e20 instead");
        }
    }

    private void enter(int position) throws QueryException {
        if (++nesting > MAX_NESTING) {
            throw in.error("expression nested more than " + MAX_NESTING + " levels deep", position,
                    "simplify the expression");
        }
    }

    /** Rejects trees deeper than {@link #MAX_DEPTH} (long operator chains), walking without recursion. */
    private static void checkDepth(Expr root, TokenCursor in) throws QueryException {
        ArrayDeque<Expr> nodes = new ArrayDeque<>();
        ArrayDeque<Integer> depths = new ArrayDeque<>();
        nodes.push(root);
        depths.push(1);
        while (!nodes.isEmpty()) {
            Expr e = nodes.pop();
            int depth = depths.pop();
            if (depth > MAX_DEPTH) {
                throw in.error("expression has more than " + MAX_DEPTH + " levels of operators", e.position(),
                        "simplify it; a long chain of ORs of equalities can be written as x IN (...)");
            }
            for (Expr child : children(e)) {
                nodes.push(child);
                depths.push(depth + 1);
            }
        }
    }

    private static List<Expr> children(Expr e) {
        return switch (e) {
            case Expr.FieldRef f -> List.of();
            case Expr.Literal l -> List.of();
            case Expr.Unary u -> List.of(u.operand());
            case Expr.Binary b -> List.of(b.left(), b.right());
            case Expr.InList i -> {
                List<Expr> all = new ArrayList<>(i.values());
                all.add(i.operand());
                yield all;
            }
            case Expr.Between b -> List.of(b.operand(), b.low(), b.high());
            case Expr.IsNull n -> List.of(n.operand());
            case Expr.Like l -> List.of(l.operand(), l.pattern());
        };
    }
}
