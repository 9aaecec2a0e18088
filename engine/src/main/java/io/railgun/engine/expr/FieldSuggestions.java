package io.railgun.engine.expr;

import io.railgun.engine.schema.Field;
import io.railgun.engine.schema.Schema;
import java.util.Locale;

/** Builds the hint of an {@code unknown_field} error: the closest field name, if any, and all of them. */
final class FieldSuggestions {
    private FieldSuggestions() {}

    static String hint(String unknown, Schema schema) {
        StringBuilder all = new StringBuilder();
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        String u = unknown.toLowerCase(Locale.ROOT);
        for (Field f : schema.fields()) {
            if (!all.isEmpty()) {
                all.append(", ");
            }
            all.append(f.name());
            int d = distance(u, f.name().toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = f.name();
            }
        }
        if (schema.size() == 0) {
            return "the stream has no fields";
        }
        String prefix = best != null && bestDistance <= Math.max(1, u.length() / 3) ? "did you mean " + best + "? The" : "the";
        return prefix + " stream's fields are " + all;
    }

    /** Levenshtein distance (names are short, so the quadratic table is fine). */
    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
