package io.railgun.node.cli;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** "Did you mean" for mistyped keys, variables and fields: the closest valid name by edit distance. */
public final class Suggestions {

    private Suggestions() {
    }

    /**
     * {@code unknown key 'prot' (did you mean 'port'?) in FILE; valid keys: host, port, ...}.
     *
     * @param what  "key", "environment variable" ... (already singular or plural)
     * @param where appended after the names, e.g. {@code " in /etc/railgun.yaml"}, or empty
     */
    static String unknown(String what, List<String> names, Collection<String> valid, String where) {
        String listed = names.stream().map(n -> {
            String near = closest(n, valid);
            return "'" + n + "'" + (near == null ? "" : " (did you mean '" + near + "'?)");
        }).collect(Collectors.joining(", "));
        return "unknown " + what + " " + listed + where + "; valid: " + String.join(", ", valid);
    }

    /** The valid name nearest to {@code name} when it is close enough to be a typo, else null. */
    public static String closest(String name, Collection<String> valid) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String v : valid) {
            int d = distance(name.toLowerCase(Locale.ROOT), v.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = v;
                bestDistance = d;
            }
        }
        return bestDistance <= Math.max(2, name.length() / 4) ? best : null;
    }

    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length()];
    }
}
