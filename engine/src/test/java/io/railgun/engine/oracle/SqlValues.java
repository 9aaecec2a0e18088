package io.railgun.engine.oracle;

/**
 * SQL value semantics over boxed values (Long, Double, String, Boolean): ordering and equality as
 * the query language defines them. Numbers compare numerically across LONG and DOUBLE (-0.0 equals
 * 0.0); strings by Unicode code point (= UTF-8 byte order, not Java's UTF-16 order); booleans
 * false &lt; true.
 */
public final class SqlValues {
    private SqlValues() {}

    /** Compares two non-null values of compatible types. */
    public static int compare(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) {
            return Long.compare(x, y);
        }
        if (a instanceof Number x && b instanceof Number y) {
            double dx = x.doubleValue();
            double dy = y.doubleValue();
            // primitive comparisons: -0.0 == 0.0 as in SQL (Double.compare would order them)
            return dx < dy ? -1 : dx > dy ? 1 : 0;
        }
        if (a instanceof String x && b instanceof String y) {
            return compareCodePoints(x, y);
        }
        if (a instanceof Boolean x && b instanceof Boolean y) {
            return Boolean.compare(x, y);
        }
        throw new IllegalArgumentException("cannot compare " + describe(a) + " with " + describe(b));
    }

    public static boolean sqlEquals(Object a, Object b) {
        return compare(a, b) == 0;
    }

    /** Code point (UTF-8 byte) order. */
    public static int compareCodePoints(String x, String y) {
        int i = 0;
        int j = 0;
        while (i < x.length() && j < y.length()) {
            int cx = x.codePointAt(i);
            int cy = y.codePointAt(j);
            if (cx != cy) {
                return Integer.compare(cx, cy);
            }
            i += Character.charCount(cx);
            j += Character.charCount(cy);
        }
        return Boolean.compare(i < x.length(), j < y.length());
    }

    /** A value normalized for DISTINCT and GROUP BY: -0.0 becomes 0.0. */
    public static Object normalize(Object v) {
        if (v instanceof Double d && d == 0.0) {
            return 0.0;
        }
        return v;
    }

    /** SQL LIKE, case-sensitive, {@code %} = any run of code points, {@code _} = exactly one code point. */
    public static boolean like(String value, String pattern) {
        int[] s = value.codePoints().toArray();
        int[] p = pattern.codePoints().toArray();
        // matched[i][j]: s[i..] matches p[j..]
        boolean[][] matched = new boolean[s.length + 1][p.length + 1];
        matched[s.length][p.length] = true;
        for (int j = p.length - 1; j >= 0; j--) {
            matched[s.length][j] = p[j] == '%' && matched[s.length][j + 1];
        }
        for (int i = s.length - 1; i >= 0; i--) {
            for (int j = p.length - 1; j >= 0; j--) {
                if (p[j] == '%') {
                    matched[i][j] = matched[i][j + 1] || matched[i + 1][j];
                } else {
                    matched[i][j] = (p[j] == '_' || p[j] == s[i]) && matched[i + 1][j + 1];
                }
            }
        }
        return matched[0][0];
    }

    public static String describe(Object v) {
        return v == null ? "NULL" : v.getClass().getSimpleName() + " " + show(v);
    }

    /** A readable form of a value for dumps: strings quoted, doubles with full precision. */
    public static String show(Object v) {
        return switch (v) {
            case null -> "null";
            case String s -> "'" + s + "'";
            case Double d -> Double.toString(d) + "d";
            case Long l -> Long.toString(l) + "L";
            default -> v.toString();
        };
    }
}
