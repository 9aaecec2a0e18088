package io.railgun.node.cli.client.send;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.railgun.node.cli.client.Json;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * NDJSON events: one JSON object per line, sent as written (the node checks the values against
 * the stream's types); blank lines are skipped. Single-threaded.
 */
final class NdjsonReader implements EventReader {
    private final BufferedReader in;
    private long line;

    NdjsonReader(BufferedReader in) {
        this.in = in;
    }

    @Override
    public InputRow next() throws IOException, InputException {
        String text;
        do {
            text = in.readLine();
            line++;
            if (text == null) {
                return null;
            }
        } while (text.isBlank());
        JsonNode node;
        try {
            node = Json.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new InputException(line, "not valid JSON: " + e.getOriginalMessage()
                    + " (each line must be one JSON object)");
        }
        if (node == null || !node.isObject()) {
            throw new InputException(line, "expected one JSON object per line, e.g. {\"id\": \"e1\", \"amount\": 12.5}");
        }
        Map<String, Object> event = new LinkedHashMap<>();
        for (var field : node.properties()) {
            event.put(field.getKey(), Json.MAPPER.treeToValue(field.getValue(), Object.class));
        }
        return new InputRow(line, event);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
