package io.railgun.engine.query;

/**
 * One lexical token of a statement.
 *
 * @param kind     what it is
 * @param text     identifiers: as written (quoted ones unescaped); strings: the unescaped value;
 *                 numbers and symbols: their source spelling; EOF: empty
 * @param position 0-based offset of its first character in the statement text
 */
record Token(TokenKind kind, String text, int position) {

    /** True for an unquoted identifier spelled {@code keyword}, ignoring case. */
    boolean isKeyword(String keyword) {
        return kind == TokenKind.IDENT && text.equalsIgnoreCase(keyword);
    }

    /** How error messages name this token: {@code 'FORM'}, {@code number 12}, {@code end of statement}. */
    String describe() {
        return switch (kind) {
            case EOF -> "end of statement";
            case IDENT -> "'" + text + "'";
            case QUOTED_IDENT -> "\"" + text.replace("\"", "\"\"") + "\"";
            case STRING -> "string '" + text.replace("'", "''") + "'";
            case INTEGER, DECIMAL -> "number " + text;
            default -> "'" + text + "'";
        };
    }
}
