package io.railgun.engine.query;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Parses a statement of the query language (SPEC §4) into a {@link Statement}:
 *
 * <pre>
 * statement := SELECT agg [AS name] {, agg [AS name]} FROM name [WHERE expr] GROUP BY name {, name} window [;]
 * agg       := COUNT(*) | COUNT(DISTINCT expr) | function(expr)
 * name      := [A-Za-z_][A-Za-z0-9_]* (not a reserved word) | "quoted name" ("" inside for a quote)
 * </pre>
 *
 * Keywords are case-insensitive; expressions are described in {@link ExpressionParser}, windows in
 * {@link WindowParser}. Every failure, for any input string, is a {@link QueryException}: code
 * {@code syntax_error} (or {@code unknown_function}), the offset of the offending token, what was
 * expected and what was found, and a hint. Hand-written lexer and recursive descent; runs when a
 * statement is registered, never per event. Stateless and thread-safe.
 */
public final class QueryParser {
    private static final String EXAMPLE = "a statement looks like SELECT COUNT(*) FROM payments GROUP BY card [RANGE 5 MINUTES]";
    private static final String AGG_HINT = "each SELECT item is an aggregate such as COUNT(*) or SUM(amount); "
            + "grouping fields go in GROUP BY";

    private final TokenCursor in;

    private QueryParser(TokenCursor in) {
        this.in = in;
    }

    /** Parses {@code text}; throws a {@link QueryException} saying where and how it is wrong. */
    public static Statement parse(String text) throws QueryException {
        if (text == null) {
            throw new QueryException(TokenCursor.SYNTAX_ERROR, "empty statement", null, 0, EXAMPLE);
        }
        TokenCursor in = new TokenCursor(text, Lexer.tokenize(text));
        return new QueryParser(in).statement();
    }

    private Statement statement() throws QueryException {
        if (in.at(TokenKind.EOF) || (in.at(TokenKind.SEMICOLON) && in.peek(1).kind() == TokenKind.EOF)) {
            throw in.error("empty statement", 0, EXAMPLE);
        }
        in.expectKeyword("SELECT", "SELECT at the start of the statement", EXAMPLE);
        List<AggregateCall> aggregates = new ArrayList<>();
        do {
            aggregates.add(aggregate());
        } while (in.accept(TokenKind.COMMA));
        if (!in.atKeyword("FROM")) {
            throw in.expected("',' or FROM after the aggregate",
                    "separate aggregates with commas and name them with AS, e.g. SUM(amount) AS total, COUNT(*) AS n");
        }
        in.next();
        String stream = in.name("a stream name after FROM", EXAMPLE);
        Expr where = null;
        if (in.acceptKeyword("WHERE")) {
            where = ExpressionParser.parse(in);
        }
        in.expectKeyword("GROUP", where == null ? "WHERE or GROUP BY after the stream name" : "GROUP BY after the WHERE condition",
                "a statement groups by at least one field, e.g. GROUP BY card");
        in.expectKeyword("BY", "BY after GROUP", "write GROUP BY card");
        List<String> groupBy = groupBy();
        WindowSpec window = WindowParser.parse(in);
        in.accept(TokenKind.SEMICOLON);
        if (!in.at(TokenKind.EOF)) {
            throw in.expected("end of statement after the window",
                    "a statement ends with its window; send several metrics as one SELECT list or as separate statements");
        }
        return new Statement(aggregates, stream, where, groupBy, window, in.text());
    }

    private AggregateCall aggregate() throws QueryException {
        Token name = in.peek();
        if (name.kind() != TokenKind.IDENT || in.peek(1).kind() != TokenKind.LPAREN) {
            throw in.expected("an aggregate such as COUNT(*) or SUM(amount)", AGG_HINT);
        }
        AggregateFunction function = AggregateNames.lookup(name.text());
        if (function == null) {
            throw in.error("unknown_function", "unknown aggregate function '" + name.text() + "'", name.position(),
                    "the aggregate functions are " + AggregateNames.ALL);
        }
        in.next();
        in.next();
        String upper = name.text().toUpperCase(Locale.ROOT);
        Expr argument = null;
        if (in.at(TokenKind.STAR)) {
            if (function != AggregateFunction.COUNT) {
                throw in.error(upper + "(*) is not supported", in.peek().position(),
                        "only COUNT accepts *; give " + upper + " a field, e.g. " + upper + "(amount)");
            }
            in.next();
        } else {
            if (in.atKeyword("DISTINCT")) {
                if (function != AggregateFunction.COUNT) {
                    throw in.error("DISTINCT is not supported in " + upper, in.peek().position(),
                            "only COUNT(DISTINCT x) is supported");
                }
                in.next();
                function = AggregateFunction.COUNT_DISTINCT;
            }
            argument = ExpressionParser.parse(in);
        }
        in.expect(TokenKind.RPAREN, "')' to close " + upper + "(", "write e.g. " + upper + "(amount)");
        String alias = null;
        if (in.acceptKeyword("AS")) {
            alias = in.name("a metric name after AS", "write e.g. SUM(amount) AS total");
        }
        return new AggregateCall(function, argument, alias, name.position());
    }

    private List<String> groupBy() throws QueryException {
        List<String> fields = new ArrayList<>();
        do {
            Token at = in.peek();
            String field = in.name("a field name after " + (fields.isEmpty() ? "GROUP BY" : "','"),
                    "group by one or more fields, e.g. GROUP BY card, merchant");
            for (String seen : fields) {
                if (seen.equalsIgnoreCase(field)) {
                    throw in.error("field '" + field + "' appears twice in GROUP BY", at.position(),
                            "list each grouping field once");
                }
            }
            fields.add(field);
        } while (in.accept(TokenKind.COMMA));
        return fields;
    }
}
