package io.railgun.engine.query;

/**
 * Parses the window clause in the paper's bracket syntax:
 *
 * <pre>
 * window   := [ RANGE duration [DELAY duration] ] | [ TUMBLING duration ] | [ RANGE UNBOUNDED ]
 * duration := positive-integer unit
 * </pre>
 *
 * Sizes must be greater than zero, a delay may be zero, and lengths must fit in a long of
 * milliseconds. Stateless.
 */
final class WindowParser {
    static final String WINDOW_HINT = "a statement ends with a window such as [RANGE 5 MINUTES], "
            + "[RANGE 5 MINUTES DELAY 1 MINUTE], [TUMBLING 1 HOUR] or [RANGE UNBOUNDED]";
    private static final String DELAY_HINT = "a DELAY applies only to sliding windows, e.g. [RANGE 1 HOUR DELAY 5 MINUTES]";

    private WindowParser() {}

    static WindowSpec parse(TokenCursor in) throws QueryException {
        in.expect(TokenKind.LBRACKET, "a window such as [RANGE 5 MINUTES]", WINDOW_HINT);
        WindowSpec spec;
        boolean delayMayFollow = false;
        if (in.acceptKeyword("RANGE")) {
            if (in.acceptKeyword("UNBOUNDED")) {
                rejectDelay(in, "an UNBOUNDED");
                spec = WindowSpec.unbounded();
            } else {
                long size = duration(in, "window size", false);
                long delay = 0;
                if (in.acceptKeyword("DELAY")) {
                    delay = duration(in, "delay", true);
                } else {
                    delayMayFollow = true;
                }
                spec = WindowSpec.sliding(size, delay);
            }
        } else if (in.acceptKeyword("TUMBLING")) {
            long size = duration(in, "window size", false);
            rejectDelay(in, "a TUMBLING");
            spec = WindowSpec.tumbling(size);
        } else {
            throw in.expected("RANGE or TUMBLING after '['", WINDOW_HINT);
        }
        in.expect(TokenKind.RBRACKET, delayMayFollow ? "DELAY or ']' after the window size" : "']' to close the window",
                WINDOW_HINT);
        return spec;
    }

    private static void rejectDelay(TokenCursor in, String kind) throws QueryException {
        if (in.atKeyword("DELAY")) {
            throw in.error("DELAY is not supported on " + kind + " window", in.peek().position(), DELAY_HINT);
        }
    }

    private static long duration(TokenCursor in, String what, boolean zeroAllowed) throws QueryException {
        Token number = in.peek();
        if (number.kind() == TokenKind.DECIMAL) {
            throw in.error("a " + what + " must be a whole number but found " + number.describe(), number.position(),
                    "use a smaller unit, e.g. 90 SECONDS instead of 1.5 MINUTES");
        }
        in.expect(TokenKind.INTEGER, "a number for the " + what, WINDOW_HINT);
        long count;
        try {
            count = Long.parseLong(number.text());
        } catch (NumberFormatException e) {
            throw overflow(in, what, number);
        }
        Token unitToken = in.peek();
        if (unitToken.kind() != TokenKind.IDENT) {
            throw in.expected("a time unit after " + number.text(), "units are " + WindowUnit.ALL);
        }
        WindowUnit unit = WindowUnit.lookup(unitToken.text());
        if (unit == null) {
            throw in.error("unknown time unit " + unitToken.describe(), unitToken.position(), "units are " + WindowUnit.ALL);
        }
        in.next();
        if (count == 0 && !zeroAllowed) {
            throw in.error("the " + what + " must be greater than 0", number.position(), WINDOW_HINT);
        }
        try {
            return Math.multiplyExact(count, unit.millis());
        } catch (ArithmeticException e) {
            throw overflow(in, what, number);
        }
    }

    private static QueryException overflow(TokenCursor in, String what, Token number) {
        return in.error("the " + what + " " + number.text() + " is too large", number.position(),
                "a window length must be less than 2^63 milliseconds (about 292 million years)");
    }
}
