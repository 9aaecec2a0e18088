package io.railgun.engine.query;

/** The kinds of token {@link Lexer} produces. Symbols carry their spelling for error messages. */
enum TokenKind {
    /** An unquoted identifier or keyword; keywords are recognised by the parser, case-insensitively. */
    IDENT,
    /** A double-quoted identifier: never a keyword. */
    QUOTED_IDENT,
    INTEGER,
    DECIMAL,
    STRING,
    LPAREN,
    RPAREN,
    LBRACKET,
    RBRACKET,
    COMMA,
    SEMICOLON,
    STAR,
    PLUS,
    MINUS,
    SLASH,
    EQ,
    NE,
    LT,
    LE,
    GT,
    GE,
    EOF
}
