package io.railgun.node.cli.client.send;

import io.railgun.client.FieldType;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Turns the text of a CSV cell into the JSON value its field's type needs (docs/http-api.md,
 * "Values"): {@code long} a whole number ({@code 3.0} and {@code 1e3} too), {@code double} a
 * decimal number, {@code boolean} {@code true}/{@code false} (any case), {@code timestamp} epoch
 * milliseconds when the cell is a whole number, else the text as an ISO-8601 date-time for the
 * node to check, {@code string} the text as it is. An empty cell (null) is NULL; surrounding spaces
 * are ignored except in strings. Stateless.
 */
final class FieldConverter {
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");

    private FieldConverter() {
    }

    /**
     * @throws IllegalArgumentException with a message that completes "field 'amount': ..."
     */
    static Object convert(FieldType type, String text) {
        if (text == null) {
            return null;
        }
        if (type == FieldType.STRING) {
            return text;
        }
        String value = text.strip();
        if (value.isEmpty()) {
            return null;
        }
        return switch (type) {
            case LONG -> whole(value);
            case DOUBLE -> decimal(value);
            case BOOLEAN -> switch (value.toLowerCase(Locale.ROOT)) {
                case "true" -> Boolean.TRUE;
                case "false" -> Boolean.FALSE;
                default -> throw new IllegalArgumentException("expected true or false for a boolean, got '" + text + "'");
            };
            case TIMESTAMP -> INTEGER.matcher(value).matches() ? whole(value) : value;
            case STRING -> text;
        };
    }

    private static Long whole(String value) {
        if (DECIMAL.matcher(value).matches()) {
            try {
                return new BigDecimal(value).longValueExact();
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("expected a whole number within 64 bits for a long, got '"
                        + value + "'");
            }
        }
        throw new IllegalArgumentException("expected a whole number for a long, got '" + value + "'");
    }

    private static Double decimal(String value) {
        if (!DECIMAL.matcher(value).matches()) {
            throw new IllegalArgumentException("expected a number for a double (digits, '.', an exponent), got '"
                    + value + "'");
        }
        double d = Double.parseDouble(value);
        if (Double.isInfinite(d)) {
            throw new IllegalArgumentException("'" + value + "' is beyond the range of a double");
        }
        return d;
    }
}
