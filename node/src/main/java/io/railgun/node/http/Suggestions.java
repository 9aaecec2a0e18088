package io.railgun.node.http;

import java.util.Collection;
import java.util.Locale;

/** "did you mean ...?" for unknown names: the closest candidate by edit distance, when close enough. */
final class Suggestions {
    private Suggestions() {}

    /** {@code "did you mean amount? "} or the empty string. */
    static String didYouMean(String unknown, Collection<String> candidates) {
        String u = unknown.toLowerCase(Locale.ROOT);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String c : candidates) {
            int d = distance(u, c.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = c;
            }
        }
        return best != null && bestDistance <= Math.max(1, u.length() / 3) ? "did you mean " + best + "? " : "";
    }

    /**
     * Edit distance counting a swap of two neighbouring characters as one edit (optimal string
     * alignment), the commonest typo ("crad" for "card"). Names are short: the full table is fine.
     */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
