package io.railgun.node.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The control topic's record values: a stream's whole catalog state as JSON, so the compacted topic
 * keeps, per stream, the last state. {@code basedOn} is the version the writer changed; a record
 * not based on the version a node holds lost a race with another writer and is not applied.
 *
 * <pre>{"version": 3, "basedOn": 2, "generation": "k3j2h0",
 *  "stream": {"name": "payments", "fields": [["id", "string"], ...], "schemaId": 1, "eventId": "id",
 *             "timestamp": "ts", "partitioners": ["card"], "partitions": 8, "latenessMs": 5000,
 *             "lateEvents": "drop", "retentionMs": 0, "inputRetentionMs": 604800000},
 *  "statements": [{"id": 2, "query": "SELECT ...", "names": ["n"], "partitioner": "card", "backfill": false,
 *                  "removed": []}]}</pre>
 */
public final class CatalogCodec {
    private static final ObjectMapper JSON = new ObjectMapper();

    private CatalogCodec() {}

    /** The record key of a stream on the control topic. */
    public static String key(String stream) {
        return "stream/" + stream;
    }

    /** The stream name of a record key, or null for keys of other kinds. */
    public static String streamOfKey(String key) {
        return key != null && key.startsWith("stream/") ? key.substring("stream/".length()) : null;
    }

    public static byte[] encode(StreamEntry e, long basedOn) {
        ObjectNode root = JSON.createObjectNode();
        root.put("version", e.version());
        root.put("basedOn", basedOn);
        root.put("generation", e.generation());
        StreamDefinition d = e.definition();
        ObjectNode s = root.putObject("stream");
        s.put("name", d.name());
        ArrayNode fields = s.putArray("fields");
        d.schema().fields().forEach(f -> fields.addArray().add(f.name()).add(f.type().jsonName()));
        s.put("schemaId", d.schema().id());
        s.put("eventId", d.eventIdField());
        if (d.timestampField() != null) {
            s.put("timestamp", d.timestampField());
        }
        ArrayNode parts = s.putArray("partitioners");
        d.partitioners().forEach(parts::add);
        s.put("partitions", d.partitions());
        s.put("latenessMs", d.latenessMs());
        s.put("lateEvents", d.lateEvents().name().toLowerCase(Locale.ROOT));
        s.put("retentionMs", d.retentionMs());
        s.put("inputRetentionMs", d.inputRetentionMs());
        ArrayNode statements = root.putArray("statements");
        for (StatementEntry st : e.statements()) {
            ObjectNode o = statements.addObject();
            o.put("id", st.id());
            o.put("query", st.query());
            ArrayNode names = o.putArray("names");
            st.names().forEach(names::add);
            o.put("partitioner", st.partitioner());
            o.put("backfill", st.backfill());
            ArrayNode removed = o.putArray("removed");
            st.removed().forEach(removed::add);
        }
        try {
            return JSON.writeValueAsBytes(root);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** A decoded record: the entry and the version it was based on. */
    public record Decoded(StreamEntry entry, long basedOn) {}

    public static Decoded decode(byte[] value) {
        try {
            JsonNode root = JSON.readTree(value);
            JsonNode s = root.get("stream");
            Map<String, FieldType> fields = new LinkedHashMap<>();
            for (JsonNode f : s.get("fields")) {
                fields.put(f.get(0).asText(), FieldType.valueOf(f.get(1).asText().toUpperCase(Locale.ROOT)));
            }
            Schema schema = schemaWithId(fields, s.get("schemaId").asInt());
            List<String> partitioners = new ArrayList<>();
            s.get("partitioners").forEach(p -> partitioners.add(p.asText()));
            StreamDefinition d = new StreamDefinition(s.get("name").asText(), schema, s.get("eventId").asText(),
                    s.hasNonNull("timestamp") ? s.get("timestamp").asText() : null, partitioners, s.get("partitions").asInt(),
                    s.get("latenessMs").asLong(), LateEventPolicy.valueOf(s.get("lateEvents").asText().toUpperCase(Locale.ROOT)),
                    s.get("retentionMs").asLong(),
                    // streams recorded before input retention existed kept everything
                    s.hasNonNull("inputRetentionMs") ? s.get("inputRetentionMs").asLong()
                            : StreamDefinition.INPUT_RETENTION_FOREVER);
            List<StatementEntry> statements = new ArrayList<>();
            for (JsonNode o : root.get("statements")) {
                List<String> names = new ArrayList<>();
                o.get("names").forEach(n -> names.add(n.asText()));
                List<String> removed = new ArrayList<>();
                o.get("removed").forEach(n -> removed.add(n.asText()));
                statements.add(new StatementEntry(o.get("id").asLong(), o.get("query").asText(), names,
                        o.get("partitioner").asText(), o.get("backfill").asBoolean(), removed));
            }
            return new Decoded(new StreamEntry(d, root.get("generation").asText(), root.get("version").asLong(), statements),
                    root.get("basedOn").asLong());
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** A schema with these fields whose id is {@code id}: the first fields, then one version per appended field. */
    private static Schema schemaWithId(Map<String, FieldType> fields, int id) {
        List<Map.Entry<String, FieldType>> list = new ArrayList<>(fields.entrySet());
        int base = Math.max(1, list.size() - (id - 1));
        Map<String, FieldType> first = new LinkedHashMap<>();
        for (int i = 0; i < base; i++) {
            first.put(list.get(i).getKey(), list.get(i).getValue());
        }
        Schema schema = Schema.of(first);
        for (int i = base; i < list.size(); i++) {
            schema = schema.withField(list.get(i).getKey(), list.get(i).getValue());
        }
        return schema;
    }
}
