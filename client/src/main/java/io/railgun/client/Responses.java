package io.railgun.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.http.HttpResponse;

/**
 * Reads the node's responses: a non-2xx status becomes a {@link RailgunException} with the code
 * and message of the SPEC §3 error body (or {@code http_<status>} and an excerpt of whatever came),
 * a 2xx body is decoded from JSON, and a body that is not the JSON expected is a {@code
 * bad_response}. Stateless: any thread may call it.
 */
final class Responses {
    private Responses() {}

    /** Decodes the JSON root of a 2xx response into a typed result. */
    @FunctionalInterface
    interface Decoder<T> {
        T decode(JsonNode root) throws IOException;
    }

    /** @throws RailgunException when the status is not 2xx */
    static void requireSuccess(HttpResponse<byte[]> response) {
        int status = response.statusCode();
        if (status < 200 || status >= 300) {
            throw error(status, response.body(), retryAfterSeconds(response));
        }
    }

    /** The exception a non-2xx response stands for. */
    static RailgunException error(int status, byte[] body, int retryAfterSeconds) {
        JsonCodec.ErrorBody error = JsonCodec.error(body);
        if (error != null) {
            return new RailgunException(status, error.code(), error.message(), retryAfterSeconds, null);
        }
        String text = JsonCodec.excerpt(body);
        return new RailgunException(status, "http_" + status, text.isEmpty() ? "HTTP " + status + " with no body" : text,
                retryAfterSeconds, null);
    }

    /** Retry-After in delay-seconds (what the node sends); 0 when absent or in another form. */
    static int retryAfterSeconds(HttpResponse<?> response) {
        return response.headers().firstValue("Retry-After").map(value -> {
            try {
                return Math.max(0, Integer.parseInt(value.strip()));
            } catch (NumberFormatException e) {
                return 0;
            }
        }).orElse(0);
    }

    /** The decoded body of a 2xx response; else the error it stands for. */
    static <T> T decode(HttpResponse<byte[]> response, Decoder<T> decoder) {
        requireSuccess(response);
        return decode(response.statusCode(), response.body(), decoder);
    }

    /** The decoded body; a RailgunException {@code bad_response} when it is not the JSON expected. */
    static <T> T decode(int status, byte[] body, Decoder<T> decoder) {
        try {
            return decoder.decode(JsonCodec.readTree(body));
        } catch (IOException e) {
            throw new RailgunException(status, RailgunException.BAD_RESPONSE,
                    "the node's reply is not the JSON SPEC §3 describes (" + e.getMessage() + "): "
                            + JsonCodec.excerpt(body), 0, e);
        }
    }
}
