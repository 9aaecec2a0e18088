package io.railgun.node.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.keyword.NonValidationKeyword;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The node's OpenAPI document as a contract for responses: finds the response an operation
 * documents for a status, and validates a real response against it (status documented, media type,
 * body against its schema with a JSON Schema draft 2020-12 validator; {@code $ref}s to
 * {@code #/components/...} resolve inside the document). Used by the test's thread only.
 */
final class OpenApiContract {
    /** Where the document is registered for the validator (a name only: nothing is fetched). */
    static final String DOCUMENT_IRI = "https://railgun.invalid/v1/openapi.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    final JsonNode document;
    private final SchemaRegistry registry;

    OpenApiContract(String documentText) {
        try {
            this.document = JSON.readTree(documentText);
        } catch (IOException e) {
            throw new UncheckedIOException("the OpenAPI document is not JSON", e);
        }
        // the document's root is loaded as a schema resource (for its $refs): its OpenAPI keys are no schema keywords
        List<NonValidationKeyword> documentKeys = new ArrayList<>();
        for (String key : List.of("openapi", "info", "jsonSchemaDialect", "servers", "paths", "webhooks", "components",
                "security", "tags", "externalDocs")) {
            documentKeys.add(new NonValidationKeyword(key));
        }
        Dialect dialect = Dialect.builder(Dialects.getOpenApi31()).keywords(documentKeys).build();
        this.registry = SchemaRegistry.withDefaultDialect(dialect, b -> b.schemas(Map.of(DOCUMENT_IRI, documentText)));
    }

    /** The operation object of {@code method} on {@code pathTemplate}, or a missing node. */
    JsonNode operation(String pathTemplate, String method) {
        return document.path("paths").path(pathTemplate).path(method.toLowerCase(Locale.ROOT));
    }

    /**
     * What is wrong with one response of an operation; empty when it conforms.
     *
     * @param pathTemplate the path as the document names it ({@code /v1/streams/{stream}})
     * @param contentType  the response's Content-Type, or null
     */
    List<String> check(String pathTemplate, String method, int status, String contentType, String body) {
        JsonNode op = operation(pathTemplate, method);
        if (op.isMissingNode()) {
            return List.of(method + " " + pathTemplate + " is not in the document");
        }
        String pointer = "/paths/" + escape(pathTemplate) + "/" + method.toLowerCase(Locale.ROOT) + "/responses/";
        String key = op.path("responses").has(Integer.toString(status)) ? Integer.toString(status)
                : op.path("responses").has(status / 100 + "XX") ? status / 100 + "XX" : "default";
        if (!op.path("responses").has(key)) {
            return List.of(method + " " + pathTemplate + " answered " + status + ", which the document does not list");
        }
        return checkResponse(pointer + escape(key), status, contentType, body);
    }

    /** Checks a response against a response object of {@code #/components/responses} (for unmatched paths and methods). */
    List<String> checkComponent(String responseName, int status, String contentType, String body) {
        return checkResponse("/components/responses/" + responseName, status, contentType, body);
    }

    private List<String> checkResponse(String responsePointer, int status, String contentType, String body) {
        String pointer = responsePointer;
        JsonNode response = document.at(pointer);
        while (response.has("$ref")) {
            pointer = response.get("$ref").asText().substring(1);
            response = document.at(pointer);
        }
        List<String> problems = new ArrayList<>();
        JsonNode content = response.path("content");
        if (content.isMissingNode() || content.isEmpty()) {
            if (body != null && !body.isEmpty()) {
                problems.add(status + ": the document says no body, the node sent " + abbreviate(body));
            }
            return problems;
        }
        String mediaType = contentType == null ? null : contentType.strip();
        String documented = null;
        for (var it = content.fieldNames(); it.hasNext(); ) {
            String m = it.next();
            if (m.equalsIgnoreCase(mediaType) || mediaType != null && m.equals("application/json")
                    && mediaType.toLowerCase(Locale.ROOT).startsWith("application/json")) {
                documented = m;
            }
        }
        if (documented == null) {
            problems.add(status + ": Content-Type " + contentType + " is not among the documented " + content);
            return problems;
        }
        Schema schema = registry.getSchema(SchemaLocation.of(DOCUMENT_IRI + "#" + uriFragment(pointer + "/content/"
                + escape(documented) + "/schema")));
        JsonNode instance;
        if (documented.startsWith("application/json")) {
            try {
                instance = JSON.readTree(body);
            } catch (IOException e) {
                problems.add(status + ": the body is not JSON: " + abbreviate(body));
                return problems;
            }
        } else {
            instance = JSON.getNodeFactory().textNode(body);
        }
        for (Error e : schema.validate(instance)) {
            problems.add(status + " " + abbreviate(body) + ": " + e);
        }
        return problems;
    }

    /** A JSON pointer token. */
    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }

    /** A JSON pointer percent-encoded for a URI fragment. */
    private static String uriFragment(String pointer) {
        StringBuilder sb = new StringBuilder();
        for (String token : pointer.substring(1).split("/", -1)) {
            sb.append('/').append(URLEncoder.encode(token, StandardCharsets.UTF_8).replace("+", "%20").replace("%7E", "~"));
        }
        return sb.toString();
    }

    private static String abbreviate(String body) {
        return body.length() <= 300 ? body : body.substring(0, 300) + "...";
    }
}
