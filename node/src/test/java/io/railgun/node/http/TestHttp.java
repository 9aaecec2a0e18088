package io.railgun.node.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A small HTTP client for the API tests. */
final class TestHttp {
    static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient client;
    private final URI base;

    TestHttp(URI base) {
        this(base, HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build());
    }

    TestHttp(URI base, HttpClient client) {
        this.base = base;
        this.client = client;
    }

    /** A response: status, headers and body text (parsed as JSON by {@link #json()}). */
    record Response(int status, java.net.http.HttpHeaders headers, String body) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }

        String errorCode() {
            return json().path("error").path("code").asText();
        }

        String errorMessage() {
            return json().path("error").path("message").asText();
        }

        String header(String name) {
            return headers.firstValue(name).orElse(null);
        }
    }

    Response call(String method, String path, String body, String... headers) {
        HttpRequest.BodyPublisher publisher = body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8);
        return send(method, path, publisher, headers);
    }

    /** Sends the body with chunked transfer encoding (no Content-Length). */
    Response callChunked(String method, String path, byte[] body, String... headers) {
        return send(method, path, HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)), headers);
    }

    Response get(String path, String... headers) {
        return call("GET", path, null, headers);
    }

    Response post(String path, String body, String... headers) {
        return call("POST", path, body, headers);
    }

    private Response send(String method, String path, HttpRequest.BodyPublisher body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(20)).method(method, body);
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        try {
            HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
            String text = r.body();
            if (r.headers().firstValue("Content-Type").orElse("").startsWith("application/json") && !text.isEmpty()) {
                // every JSON body ends with a newline, for terminals; the assertions compare the JSON itself
                if (!text.endsWith("\n")) {
                    throw new AssertionError("a JSON body without its final newline: " + text);
                }
                text = text.substring(0, text.length() - 1);
            }
            return new Response(r.statusCode(), r.headers(), text);
        } catch (IOException e) {
            throw new AssertionError(method + " " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
