package io.railgun.node.http;

import io.railgun.node.ops.Readiness;
import io.railgun.node.ops.ReadinessReport;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The operations endpoints beside {@code /health} and {@code /metrics} (SPEC §3.5):
 * <ul>
 *   <li>{@code GET /health/live}: 200 {@code {"status":"live"}} while the process serves HTTP;</li>
 *   <li>{@code GET /health/ready}: 200 {@code {"status":"ready","tasks":N,"reasons":[]}} when the node
 *       serves every task it owns, caught up ({@link Readiness}); else 503
 *       {@code {"status":"not_ready","tasks":N,"reasons":["..."]}} with {@code Retry-After: 1};</li>
 *   <li>{@code GET /v1/openapi.json}: the OpenAPI 3.1 description of the API, the resource
 *       {@value #OPENAPI_RESOURCE} of the node's class path, served as it is.</li>
 * </ul>
 * None needs a token (see {@link Endpoint}). Thread-safe: called concurrently on the server's
 * request threads; the OpenAPI document is read once and shared.
 */
final class OpsHandlers {
    static final String OPENAPI_RESOURCE = "/openapi/railgun-openapi.json";
    private final Readiness readiness;
    private volatile byte[] openApi;

    OpsHandlers(Readiness readiness) {
        this.readiness = readiness;
    }

    void live(ApiRequest req) throws IOException {
        req.respondJson(200, g -> {
            g.writeStartObject();
            g.writeStringField("status", "live");
            g.writeEndObject();
        });
    }

    void ready(ApiRequest req) throws IOException {
        ReadinessReport report = readiness.check();
        if (!report.ready()) {
            req.setHeader("Retry-After", "1");
        }
        req.respondJson(report.ready() ? 200 : 503, g -> {
            g.writeStartObject();
            g.writeStringField("status", report.ready() ? "ready" : "not_ready");
            g.writeNumberField("tasks", report.tasks());
            g.writeArrayFieldStart("reasons");
            for (String reason : report.reasons()) {
                g.writeString(reason);
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    void openApi(ApiRequest req) throws IOException {
        byte[] doc = openApiDocument();
        GrowableBytes out = new GrowableBytes(doc.length + 1);
        out.write(doc, 0, doc.length);
        req.respond(200, ApiRequest.JSON_TYPE, out);
    }

    private byte[] openApiDocument() {
        byte[] doc = openApi;
        if (doc == null) {
            try (InputStream in = OpsHandlers.class.getResourceAsStream(OPENAPI_RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("the OpenAPI document " + OPENAPI_RESOURCE + " is missing from the"
                            + " node's class path (a broken build)");
                }
                doc = in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException("the OpenAPI document " + OPENAPI_RESOURCE + " cannot be read", e);
            }
            openApi = doc;
        }
        return doc;
    }
}
