package io.railgun.node.http;

import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.frontend.ApiException;
import java.io.IOException;

/** {@code /v1/streams} and {@code /v1/streams/{stream}} (SPEC §3.1). Thread-safe. */
final class StreamHandlers {
    private final ApiBackend backend;

    StreamHandlers(ApiBackend backend) {
        this.backend = backend;
    }

    /** 201 when created, 200 when changed (or unchanged); the body is the definition as sent. */
    void put(ApiRequest req) throws IOException {
        StreamJson.checkName(req.stream());
        GrowableBytes body = req.readBody();
        StreamDefinition definition = StreamJson.parse(req.stream(), body.array(), body.length());
        boolean created = backend.putStream(definition);
        req.respondJson(created ? 201 : 200, g -> StreamJson.write(g, definition));
    }

    void get(ApiRequest req) throws IOException {
        StreamDefinition definition = lookup(backend, req.stream());
        req.respondJson(200, g -> StreamJson.write(g, definition));
    }

    void list(ApiRequest req) throws IOException {
        var streams = backend.streams();
        req.respondJson(200, g -> StreamJson.writeList(g, streams));
    }

    /** 204. */
    void delete(ApiRequest req) throws IOException {
        checkExists(req.stream());
        backend.deleteStream(req.stream());
        req.respondEmpty(204);
    }

    /**
     * The stream's definition; a name no stream can have gets the 404 of {@link #checkExists}.
     *
     * @throws ApiException 404 {@code unknown_stream}
     */
    static StreamDefinition lookup(ApiBackend backend, String name) {
        // no stream has a name the pattern refuses: the pattern is checked only for an unknown name
        StreamDefinition d;
        try {
            d = backend.stream(name);
        } catch (ApiException e) {
            checkExists(name);
            throw e;
        }
        if (d == null) {
            checkExists(name);
            throw unknown(name);
        }
        return d;
    }

    /** @throws ApiException 404 {@code unknown_stream} for a name no stream can have */
    static void checkExists(String name) {
        if (!StreamJson.STREAM_NAME.matcher(name).matches()) {
            throw unknown(name);
        }
    }

    private static ApiException unknown(String name) {
        return ApiException.notFound("unknown_stream", "there is no stream '" + name + "'; create it with PUT "
                + "/v1/streams/{stream} (GET /v1/streams lists them)");
    }
}
