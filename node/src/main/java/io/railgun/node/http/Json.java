package io.railgun.node.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.core.util.RecyclerPool;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railgun.node.frontend.ApiException;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The JSON set-up shared by the codecs: a thread-safe factory for bodies read whole (duplicate keys are refused, so
 * {@code {"a": 1, "a": 2}} is an error rather than a silent "last one wins") and the translation of
 * Jackson's syntax errors into {@code 400 invalid_json} with line and column.
 */
final class Json {
    /**
     * Jackson's parse and generate buffers, shared by the factories. Its default pool is per thread,
     * which recycles nothing when every request has its own virtual thread; this one is bounded.
     */
    static final RecyclerPool<BufferRecycler> BUFFERS = JsonRecyclerPools.newBoundedPool(256);
    static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .recyclerPool(BUFFERS)
            .build();
    static final ObjectMapper MAPPER = new ObjectMapper(FACTORY);

    private Json() {}

    static JsonParser parser(byte[] body, int length) {
        try {
            Utf8.check(body, length);
            return FACTORY.createParser(body, 0, length);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // no I/O happens on a byte array
        }
    }

    /**
     * Reads a whole body as a tree (for the DDL endpoints, off the hot path).
     *
     * @param example what a valid body looks like, quoted in the error messages
     */
    static JsonNode readTree(byte[] body, int length, String example) {
        if (isBlank(body, length)) {
            throw ApiException.badRequest("invalid_json", "the request body is empty; send a JSON object like " + example);
        }
        try (JsonParser p = parser(body, length)) {
            JsonNode node = MAPPER.readTree(p);
            if (p.nextToken() != null) {
                throw trailing(p);
            }
            return node;
        } catch (JsonProcessingException e) {
            throw malformed(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static boolean isBlank(byte[] body, int length) {
        for (int i = 0; i < length; i++) {
            byte b = body[i];
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return false;
            }
        }
        return true;
    }

    /** A syntax error of the body, with its position. */
    static ApiException malformed(JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
        return ApiException.badRequest("invalid_json", "the request body is not valid JSON" + where + ": "
                + e.getOriginalMessage() + "; check the syntax (quoted keys, no trailing commas, no comments)");
    }

    /** Content after the first JSON value. */
    static ApiException trailing(JsonParser p) {
        JsonLocation at = p.currentTokenLocation();
        return ApiException.badRequest("invalid_json", "the request body holds more than one JSON value (more content at line "
                + at.getLineNr() + ", column " + at.getColumnNr() + "); send exactly one JSON value");
    }

    /** How a token is named in messages: "a string", "an array" ... */
    static String describe(JsonToken token) {
        if (token == null) {
            return "nothing";
        }
        return switch (token) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT -> "an integer";
            case VALUE_NUMBER_FLOAT -> "a decimal number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NULL -> "null";
            default -> token.name().toLowerCase(java.util.Locale.ROOT);
        };
    }
}
