package io.railgun.engine.query;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a statement into {@link Token}s, ending with one {@link TokenKind#EOF} token. Skips white space,
 * {@code -- line} comments and {@code /* block *}{@code /} comments. Runs once per statement, off the
 * hot path; stateless and thread-safe.
 */
final class Lexer {
    private static final String NUMBER_HINT = "numbers look like 42, 3.5 or 1e6; put a space between a number and a word";

    private final String text;
    private final List<Token> tokens = new ArrayList<>();
    private int pos;

    private Lexer(String text) {
        this.text = text;
    }

    /** The tokens of {@code text}; the last one is EOF at {@code text.length()}. */
    static List<Token> tokenize(String text) throws QueryException {
        Lexer lexer = new Lexer(text);
        lexer.run();
        return lexer.tokens;
    }

    private void run() throws QueryException {
        int n = text.length();
        while (true) {
            skipSpaceAndComments();
            if (pos >= n) {
                tokens.add(new Token(TokenKind.EOF, "", n));
                return;
            }
            char c = text.charAt(pos);
            if (isIdentStart(c)) {
                identifier();
            } else if (isDigit(c) || (c == '.' && pos + 1 < n && isDigit(text.charAt(pos + 1)))) {
                number();
            } else if (c == '\'') {
                quoted('\'', TokenKind.STRING);
            } else if (c == '"') {
                quoted('"', TokenKind.QUOTED_IDENT);
            } else {
                symbol(c);
            }
        }
    }

    private void skipSpaceAndComments() throws QueryException {
        int n = text.length();
        while (pos < n) {
            char c = text.charAt(pos);
            if (Character.isWhitespace(c)) {
                pos++;
            } else if (c == '-' && pos + 1 < n && text.charAt(pos + 1) == '-') {
                while (pos < n && text.charAt(pos) != '\n') {
                    pos++;
                }
            } else if (c == '/' && pos + 1 < n && text.charAt(pos + 1) == '*') {
                int end = text.indexOf("*/", pos + 2);
                if (end < 0) {
                    throw error("unterminated comment", pos, "close a /* comment with */");
                }
                pos = end + 2;
            } else {
                return;
            }
        }
    }

    private void identifier() {
        int start = pos;
        while (pos < text.length() && isIdentPart(text.charAt(pos))) {
            pos++;
        }
        tokens.add(new Token(TokenKind.IDENT, text.substring(start, pos), start));
    }

    private void number() throws QueryException {
        int start = pos;
        int n = text.length();
        boolean decimal = false;
        while (pos < n && isDigit(text.charAt(pos))) {
            pos++;
        }
        if (pos < n && text.charAt(pos) == '.') {
            decimal = true;
            pos++;
            while (pos < n && isDigit(text.charAt(pos))) {
                pos++;
            }
        }
        if (pos < n && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
            decimal = true;
            pos++;
            if (pos < n && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
                pos++;
            }
            int digits = pos;
            while (pos < n && isDigit(text.charAt(pos))) {
                pos++;
            }
            if (pos == digits) {
                throw malformedNumber(start);
            }
        }
        if (pos < n && (isIdentPart(text.charAt(pos)) || text.charAt(pos) == '.')) {
            throw malformedNumber(start);
        }
        String spelling = text.substring(start, pos);
        if (decimal && !Double.isFinite(Double.parseDouble(spelling))) {
            throw error("number " + spelling + " is out of range", start, "a decimal number must fit in a double");
        }
        tokens.add(new Token(decimal ? TokenKind.DECIMAL : TokenKind.INTEGER, spelling, start));
    }

    private QueryException malformedNumber(int start) {
        int end = start;
        while (end < text.length() && (isIdentPart(text.charAt(end)) || text.charAt(end) == '.'
                || ((text.charAt(end) == '+' || text.charAt(end) == '-') && end > start
                        && (text.charAt(end - 1) == 'e' || text.charAt(end - 1) == 'E')))) {
            end++;
        }
        return error("malformed number '" + text.substring(start, end) + "'", start, NUMBER_HINT);
    }

    /** A '...' string or "..." identifier; a doubled quote inside stands for one quote. */
    private void quoted(char quote, TokenKind kind) throws QueryException {
        int start = pos;
        StringBuilder value = new StringBuilder();
        pos++;
        while (true) {
            if (pos >= text.length()) {
                throw kind == TokenKind.STRING
                        ? error("unterminated string", start, "close the string with ' and write '' for a quote inside it")
                        : error("unterminated quoted name", start, "close the name with \" and write \"\" for a quote inside it");
            }
            char c = text.charAt(pos++);
            if (c == quote) {
                if (pos < text.length() && text.charAt(pos) == quote) {
                    value.append(quote);
                    pos++;
                } else {
                    break;
                }
            } else {
                value.append(c);
            }
        }
        if (kind == TokenKind.QUOTED_IDENT && value.isEmpty()) {
            throw error("empty quoted name \"\"", start, "a quoted name needs at least one character, e.g. \"my field\"");
        }
        tokens.add(new Token(kind, value.toString(), start));
    }

    private void symbol(char c) throws QueryException {
        int start = pos;
        char next = pos + 1 < text.length() ? text.charAt(pos + 1) : '\0';
        TokenKind kind;
        int length = 1;
        switch (c) {
            case '(' -> kind = TokenKind.LPAREN;
            case ')' -> kind = TokenKind.RPAREN;
            case '[' -> kind = TokenKind.LBRACKET;
            case ']' -> kind = TokenKind.RBRACKET;
            case ',' -> kind = TokenKind.COMMA;
            case ';' -> kind = TokenKind.SEMICOLON;
            case '*' -> kind = TokenKind.STAR;
            case '+' -> kind = TokenKind.PLUS;
            case '-' -> kind = TokenKind.MINUS;
            case '/' -> kind = TokenKind.SLASH;
            case '=' -> kind = TokenKind.EQ;
            case '<' -> {
                if (next == '=') {
                    kind = TokenKind.LE;
                    length = 2;
                } else if (next == '>') {
                    kind = TokenKind.NE;
                    length = 2;
                } else {
                    kind = TokenKind.LT;
                }
            }
            case '>' -> {
                kind = next == '=' ? TokenKind.GE : TokenKind.GT;
                length = next == '=' ? 2 : 1;
            }
            case '!' -> {
                if (next != '=') {
                    throw error("unexpected character '!'", start, "write != or <> for 'not equal' and NOT for negation");
                }
                kind = TokenKind.NE;
                length = 2;
            }
            default -> throw unexpected(start);
        }
        pos += length;
        tokens.add(new Token(kind, text.substring(start, pos), start));
    }

    private QueryException unexpected(int at) {
        int cp = text.codePointAt(at);
        boolean invisible = Character.isISOControl(cp) || Character.isSpaceChar(cp) || Character.getType(cp) == Character.FORMAT;
        String shown = invisible ? String.format("U+%04X", cp) : "'" + Character.toString(cp) + "'";
        return error("unexpected character " + shown, at,
                "names use letters A-Z, digits and _ (quote other names with \"...\"), strings use '...'");
    }

    private QueryException error(String detail, int at, String hint) {
        return new QueryException("syntax_error", detail, text, at, hint);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isIdentStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    private static boolean isIdentPart(char c) {
        return isIdentStart(c) || isDigit(c);
    }
}
