package io.railgun.node.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Raw HTTP for the end-to-end tests: the requests the typed client cannot send (malformed bodies,
 * wrong or missing tokens, chunked bodies), and the checks of SPEC §3's error format. One instance
 * per node; thread-safe (it only holds a {@link HttpClient}).
 */
final class RawHttp {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(20);
    private final URI base;
    private final HttpClient client;

    RawHttp(URI base) {
        this(base, HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                .build());
    }

    RawHttp(URI base, HttpClient client) {
        this.base = base;
        this.client = client;
    }

    /** A response as it came: status, headers, body text. */
    record Response(String request, int status, HttpHeaders headers, String body) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError(request + ": the body is not JSON: " + body, e);
            }
        }

        String header(String name) {
            return headers.firstValue(name).orElse(null);
        }

        /**
         * Asserts a refusal in SPEC §3's format: this status (4xx, never 500 for bad input), a JSON body
         * that is exactly {@code {"error": {"code", "message"}}} with this code, and a message holding
         * every one of {@code words} (ignoring case).
         *
         * @return the message
         */
        String assertError(int expectedStatus, String expectedCode, String... words) {
            assertThat(status).as("%s -> %s", request, body).isEqualTo(expectedStatus);
            assertThat(header("Content-Type")).as(request + ": Content-Type").startsWith("application/json");
            JsonNode root = json();
            assertThat(fieldNames(root)).as(request + ": keys of " + body).containsExactly("error");
            JsonNode error = root.get("error");
            assertThat(fieldNames(error)).as(request + ": keys of the error in " + body)
                    .containsExactlyInAnyOrder("code", "message");
            assertThat(error.get("code").isTextual() && error.get("message").isTextual()).as(body).isTrue();
            assertThat(error.get("code").asText()).as(request + ": " + body).isEqualTo(expectedCode);
            String message = error.get("message").asText();
            for (String w : words) {
                assertThat(message).as(request + ": the message should say what is wrong").containsIgnoringCase(w);
            }
            return message;
        }
    }

    Response get(String path, String... headers) {
        return send("GET", path, HttpRequest.BodyPublishers.noBody(), headers);
    }

    Response delete(String path, String... headers) {
        return send("DELETE", path, HttpRequest.BodyPublishers.noBody(), headers);
    }

    /** Sends {@code body} (UTF-8) with {@code Content-Type: application/json} unless a header says otherwise. */
    Response send(String method, String path, String body, String... headers) {
        return send(method, path, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8),
                withJsonType(headers));
    }

    /** Sends {@code body} as it is (e.g. bytes that are not UTF-8), with {@code Content-Type: application/json}. */
    Response sendBytes(String method, String path, byte[] body, String... headers) {
        return send(method, path, HttpRequest.BodyPublishers.ofByteArray(body), withJsonType(headers));
    }

    /** Sends the body with chunked transfer encoding: no Content-Length for the server to check first. */
    Response sendChunked(String method, String path, String body, String... headers) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return send(method, path, HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes)),
                withJsonType(headers));
    }

    private Response send(String method, String path, HttpRequest.BodyPublisher body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(REQUEST_TIMEOUT).method(method, body);
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        String what = method + " " + path;
        try {
            HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Response(what, r.statusCode(), r.headers(), r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(what + " got no response", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(what + " interrupted", e);
        }
    }

    private static String[] withJsonType(String[] headers) {
        for (int i = 0; i < headers.length; i += 2) {
            if (headers[i].equalsIgnoreCase("Content-Type")) {
                return headers;
            }
        }
        String[] all = new String[headers.length + 2];
        System.arraycopy(headers, 0, all, 0, headers.length);
        all[headers.length] = "Content-Type";
        all[headers.length + 1] = "application/json";
        return all;
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        if (node != null && node.isObject()) {
            for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                names.add(it.next());
            }
        }
        return names;
    }
}
