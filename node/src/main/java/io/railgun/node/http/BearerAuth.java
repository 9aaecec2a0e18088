package io.railgun.node.http;

import io.railgun.node.frontend.ApiException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;

/**
 * Bearer-token checks. With no token configured, everything is open. With either token set, every
 * endpoint but {@code GET /health} needs {@code Authorization: Bearer <token>}: the ingest token
 * allows {@link Scope#INGEST} endpoints, the admin token all of them. When only the ingest token is
 * set, nothing can use the admin endpoints (fail closed): the refusal says to configure an admin
 * token. Tokens are compared as SHA-256 digests with {@link MessageDigest#isEqual}, in time
 * independent of the content and length of the token sent. Immutable and thread-safe.
 */
final class BearerAuth {
    static final String CHALLENGE = "Bearer realm=\"railgun\"";
    static final String INVALID_TOKEN_CHALLENGE = "Bearer realm=\"railgun\", error=\"invalid_token\"";
    private final byte[] ingestDigest;
    private final byte[] adminDigest;

    BearerAuth(String ingestToken, String adminToken) {
        this.ingestDigest = ingestToken == null || ingestToken.isEmpty() ? null : sha256(ingestToken);
        this.adminDigest = adminToken == null || adminToken.isEmpty() ? null : sha256(adminToken);
    }

    boolean enabled() {
        return ingestDigest != null || adminDigest != null;
    }

    /**
     * Checks a request's Authorization header against the scope its endpoint needs.
     *
     * @param what the request, as named in messages ({@code "PUT /v1/streams/x"})
     * @return null when allowed; else the refusal (401 {@code unauthorized}, 403 {@code forbidden})
     */
    Refusal check(String authorization, Scope needed, String what) {
        if (needed == Scope.NONE || !enabled()) {
            return null;
        }
        if (authorization == null || authorization.isBlank()) {
            return new Refusal(new ApiException(401, "unauthorized", what + " needs a bearer token: send the header "
                    + "'Authorization: Bearer <token>' with the " + (needed == Scope.ADMIN ? "admin" : "ingest or admin")
                    + " token of this node"), CHALLENGE);
        }
        String header = authorization.strip();
        if (header.length() < 7 || !header.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")) {
            return new Refusal(new ApiException(401, "unauthorized", "the Authorization header must use the Bearer "
                    + "scheme: 'Authorization: Bearer <token>'"), CHALLENGE);
        }
        byte[] sent = sha256(header.substring(7).strip());
        // both comparisons always run, so timing does not tell which token was close
        boolean admin = adminDigest != null & MessageDigest.isEqual(sent, adminDigest == null ? sent : adminDigest);
        boolean ingest = ingestDigest != null & MessageDigest.isEqual(sent, ingestDigest == null ? sent : ingestDigest);
        if (!admin && !ingest) {
            return new Refusal(new ApiException(401, "unauthorized", "the bearer token is not valid for this node; send "
                    + "the ingest or admin token the node was started with"), INVALID_TOKEN_CHALLENGE);
        }
        if (needed == Scope.ADMIN && !admin) {
            String fix = adminDigest == null
                    ? "this node has no admin token configured: restart it with an admin token to manage streams and metrics"
                    : "use the admin token";
            return new Refusal(new ApiException(403, "forbidden", what + " needs the admin scope, but the token sent is "
                    + "the ingest token (events, batches, point reads and /metrics only); " + fix), null);
        }
        return null;
    }

    /**
     * A refused request.
     *
     * @param challenge the WWW-Authenticate header of a 401, null for a 403
     */
    record Refusal(ApiException error, String challenge) {}

    private static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
    }
}
