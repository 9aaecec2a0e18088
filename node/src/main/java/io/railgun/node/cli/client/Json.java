package io.railgun.node.cli.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The JSON the client commands print ({@code --json}, the replies of {@code send}) and read (event
 * lines, stream files): one line per value, object keys in insertion order, integers as
 * {@code Long}. Thread-safe.
 */
public final class Json {
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_LONG_FOR_INTS)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .build();

    private Json() {
    }

    /** {@code value} as one line of JSON. */
    public static String line(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write as JSON: " + e.getOriginalMessage(), e);
        }
    }
}
