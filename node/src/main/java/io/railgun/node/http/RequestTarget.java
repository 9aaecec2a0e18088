package io.railgun.node.http;

/**
 * The request target of an HTTP/1.1 request line (RFC 9112 §3.2): origin form ({@code /path?query})
 * or absolute form ({@code http://host/path?query}), split into the raw path and query and checked
 * for characters a URI cannot hold and bad percent escapes in the path. Stateless.
 */
final class RequestTarget {
    private RequestTarget() {}

    /** {@code [rawPath, rawQuery or null]}, or null when the target is malformed. */
    static String[] split(String uri) {
        String target = uri;
        if (!target.startsWith("/")) {
            int scheme = target.indexOf("://");
            if (scheme <= 0 || !target.regionMatches(true, 0, "http", 0, 4)) {
                return null;
            }
            int pathStart = target.indexOf('/', scheme + 3);
            int queryStart = target.indexOf('?', scheme + 3);
            if (pathStart < 0 || queryStart >= 0 && queryStart < pathStart) {
                target = "/" + (queryStart >= 0 ? target.substring(queryStart) : "");
            } else {
                target = target.substring(pathStart);
            }
        }
        int q = target.indexOf('?');
        String path = q < 0 ? target : target.substring(0, q);
        String query = q < 0 ? null : target.substring(q + 1);
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '%') {
                if (i + 2 >= path.length() || Character.digit(path.charAt(i + 1), 16) < 0
                        || Character.digit(path.charAt(i + 2), 16) < 0) {
                    return null;
                }
                i += 2;
            } else if (!pathChar(c)) {
                return null;
            }
        }
        if (query != null) {
            for (int i = 0; i < query.length(); i++) {
                char c = query.charAt(i);
                if (c <= 0x20 || c >= 0x7f || c == '#') {
                    return null;
                }
            }
        }
        return new String[] {path, query};
    }

    /** RFC 3986 pchar (without '%') or '/'. */
    private static boolean pathChar(char c) {
        if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
            return true;
        }
        return switch (c) {
            case '-', '.', '_', '~', '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=', ':', '@', '/' -> true;
            default -> false;
        };
    }

    /** A client's text as put in a message: at most 100 characters, control characters escaped. */
    static String printable(String s) {
        StringBuilder b = new StringBuilder(Math.min(s.length(), 100) + 3);
        for (int i = 0; i < s.length() && i < 100; i++) {
            char c = s.charAt(i);
            b.append(c < 0x20 || c >= 0x7f ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return s.length() > 100 ? b.append("...").toString() : b.toString();
    }
}
