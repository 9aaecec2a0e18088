package io.railgun.engine.expr;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A compiled SQL LIKE pattern matched directly on UTF-8 bytes: {@code %} matches any run of characters
 * (including none), {@code _} exactly one character (one code point, 1 to 4 bytes), anything else
 * itself, case-sensitively; there is no escape character. The pattern is an {@code int[]} of literal
 * byte values (0-255) and the two wildcards; matching is the classic iterative wildcard algorithm that
 * backtracks only to the last {@code %} (greedy, O(text × pattern) worst case, usually linear) and
 * allocates nothing. Immutable; thread-safe.
 */
final class LikePattern {
    private static final int ANY_ONE = -1;
    private static final int ANY_RUN = -2;

    private final int[] tokens;

    private LikePattern(int[] tokens) {
        this.tokens = tokens;
    }

    static LikePattern compile(String pattern) {
        int[] out = new int[pattern.length() * 4];
        int n = 0;
        for (int i = 0; i < pattern.length(); ) {
            int cp = pattern.codePointAt(i);
            i += Character.charCount(cp);
            if (cp == '%') {
                if (n == 0 || out[n - 1] != ANY_RUN) {
                    out[n++] = ANY_RUN;
                }
            } else if (cp == '_') {
                out[n++] = ANY_ONE;
            } else {
                for (byte b : Character.toString(cp).getBytes(StandardCharsets.UTF_8)) {
                    out[n++] = b & 0xFF;
                }
            }
        }
        return new LikePattern(Arrays.copyOf(out, n));
    }

    /** True when the UTF-8 bytes {@code text[from, to)} match the whole pattern. */
    boolean matches(byte[] text, int from, int to) {
        int p = 0;
        int s = from;
        int runP = -1; // pattern index of the last % seen
        int runS = -1; // where the text resumes if we backtrack to it
        int n = tokens.length;
        while (s < to) {
            int t = p < n ? tokens[p] : 0;
            if (p < n && t == ANY_ONE) {
                s = nextCodePoint(text, s, to);
                p++;
            } else if (p < n && t == ANY_RUN) {
                runP = p++;
                runS = s;
            } else if (p < n && t == (text[s] & 0xFF)) {
                s++;
                p++;
            } else if (runP >= 0) {
                // Let the last % swallow one more character and retry from there.
                runS = nextCodePoint(text, runS, to);
                s = runS;
                p = runP + 1;
            } else {
                return false;
            }
        }
        while (p < n && tokens[p] == ANY_RUN) {
            p++;
        }
        return p == n;
    }

    /** The offset after the code point starting at {@code s} (a stray byte counts as one character). */
    private static int nextCodePoint(byte[] text, int s, int to) {
        int lead = text[s] & 0xFF;
        int length = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
        return Math.min(s + length, to);
    }
}
