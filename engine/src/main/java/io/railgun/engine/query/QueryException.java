package io.railgun.engine.query;

/**
 * A statement that cannot be accepted: a syntax error ({@code code = "syntax_error"}) or a semantic
 * one ({@code "unknown_field"}, {@code "type_mismatch"}, {@code "no_partitioner"},
 * {@code "duplicate_metric"}, ...). The message names the position (line and column, 1-based) and
 * ends with a hint on how to fix it; the node turns it into a 400 reply.
 */
public final class QueryException extends Exception {
    private final String code;
    private final int position;
    private final String hint;

    /**
     * @param code     stable machine code
     * @param detail   what is wrong
     * @param text     the statement text (for line/column), may be null
     * @param position 0-based offset of the problem, or -1 when it has none
     * @param hint     how to fix it
     */
    public QueryException(String code, String detail, String text, int position, String hint) {
        super(format(detail, text, position, hint));
        this.code = code;
        this.position = position;
        this.hint = hint;
    }

    public String code() {
        return code;
    }

    /** 0-based character offset in the statement, or -1. */
    public int position() {
        return position;
    }

    public String hint() {
        return hint;
    }

    private static String format(String detail, String text, int position, String hint) {
        StringBuilder sb = new StringBuilder(detail);
        if (position >= 0 && text != null) {
            int line = 1;
            int col = 1;
            for (int i = 0; i < position && i < text.length(); i++) {
                if (text.charAt(i) == '\n') {
                    line++;
                    col = 1;
                } else {
                    col++;
                }
            }
            sb.append(" at line ").append(line).append(", column ").append(col);
            int start = Math.max(0, position - 20);
            int end = Math.min(text.length(), position + 20);
            sb.append(" (near \"").append(text, start, position).append(">>>").append(text, Math.min(position, end), end).append("\")");
        }
        if (hint != null && !hint.isEmpty()) {
            sb.append(". Hint: ").append(hint);
        }
        return sb.toString();
    }
}
