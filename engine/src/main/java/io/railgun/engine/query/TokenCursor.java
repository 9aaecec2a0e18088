package io.railgun.engine.query;

import java.util.List;

/**
 * A read position in a statement's tokens, shared by the statement, expression and window parsers, with
 * the helpers that turn "expected X" into a {@link QueryException}. One per parse; not thread-safe.
 */
final class TokenCursor {
    static final String SYNTAX_ERROR = "syntax_error";

    private final String text;
    private final List<Token> tokens;
    private int index;

    TokenCursor(String text, List<Token> tokens) {
        this.text = text;
        this.tokens = tokens;
    }

    String text() {
        return text;
    }

    Token peek() {
        return tokens.get(index);
    }

    /** The token {@code ahead} places after the current one (EOF when past the end). */
    Token peek(int ahead) {
        return tokens.get(Math.min(index + ahead, tokens.size() - 1));
    }

    /** The last consumed token, or null at the start. */
    Token previous() {
        return index == 0 ? null : tokens.get(index - 1);
    }

    Token next() {
        Token t = tokens.get(index);
        if (t.kind() != TokenKind.EOF) {
            index++;
        }
        return t;
    }

    boolean at(TokenKind kind) {
        return peek().kind() == kind;
    }

    boolean atKeyword(String keyword) {
        return peek().isKeyword(keyword);
    }

    boolean accept(TokenKind kind) {
        if (at(kind)) {
            next();
            return true;
        }
        return false;
    }

    boolean acceptKeyword(String keyword) {
        if (atKeyword(keyword)) {
            next();
            return true;
        }
        return false;
    }

    Token expect(TokenKind kind, String expected, String hint) throws QueryException {
        if (!at(kind)) {
            throw expected(expected, hint);
        }
        return next();
    }

    void expectKeyword(String keyword, String expected, String hint) throws QueryException {
        if (!atKeyword(keyword)) {
            throw expected(expected, hint);
        }
        next();
    }

    /**
     * A name: an unquoted identifier that is not a reserved word, or a quoted one.
     *
     * @param what what the name is for, as in "expected {what} but found ..."
     */
    String name(String what, String hint) throws QueryException {
        Token t = peek();
        if (t.kind() == TokenKind.QUOTED_IDENT) {
            return next().text();
        }
        if (t.kind() == TokenKind.IDENT) {
            if (Keywords.isReserved(t.text())) {
                throw error("expected " + what + " but found the reserved word " + t.describe(), t.position(),
                        "quote a name that is a reserved word: \"" + t.text() + "\"");
            }
            return next().text();
        }
        throw expected(what, hint);
    }

    /** "expected {what} but found {current token}" at the current token. */
    QueryException expected(String what, String hint) {
        Token t = peek();
        return error("expected " + what + " but found " + t.describe(), t.position(), hint);
    }

    QueryException error(String detail, int position, String hint) {
        return new QueryException(SYNTAX_ERROR, detail, text, position, hint);
    }

    QueryException error(String code, String detail, int position, String hint) {
        return new QueryException(code, detail, text, position, hint);
    }
}
