package io.railgun.node.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The control topic's records of DDL completion (see {@link DdlLedger} for the protocol). Two parts:
 *
 * <p><b>The markers of a change</b>, a field {@code "ddl"} of the stream's record (key
 * {@code stream/<name>}, {@link CatalogCodec}), written with the change itself: the input records
 * every task of the partitioner's topic must receive, so that any node can write them if the
 * writer dies before it has. Absent when the change needs no markers (a stream created) and in
 * records written before this field existed.
 *
 * <pre>"ddl": {"v": 1, "writer": "node-1", "atMs": 1700000000000,
 *         "markers": [{"partitioner": "card", "value": "&lt;base64 of the TaskInput record&gt;"}]}</pre>
 *
 * <p><b>The ledger</b>, records under key {@code ddl/<name>}: who is writing the markers of the
 * stream's current change, and that they are all written.
 *
 * <pre>{"v": 1, "generation": "k3j2h0", "version": 4, "state": "claimed", "by": "node-2", "atMs": ..., "attempt": 1}
 *{"v": 1, "generation": "k3j2h0", "version": 4, "state": "done", "by": "node-2", "atMs": ...}</pre>
 *
 * {@code v} is the format's version ({@value #VERSION}); a reader refuses another one
 * ({@link IllegalArgumentException}): the stream record is then applied without its markers, a
 * ledger record ignored. Stateless, thread-safe.
 */
public final class DdlCodec {
    public static final int VERSION = 1;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LEDGER_PREFIX = "ddl/";

    private DdlCodec() {}

    /** One input record every task of {@code partitioner}'s topic must receive. */
    public record Marker(String partitioner, byte[] value) {}

    /** The markers field of a stream record. */
    public record Markers(String writer, long atMs, List<Marker> markers) {
        public Markers {
            markers = List.copyOf(markers);
        }
    }

    /** A decoded ledger record; {@code attempt} is 0 for {@code done}. */
    public record LedgerRecord(String generation, long version, boolean done, String by, long atMs, int attempt) {}

    /** The ledger key of a stream. */
    public static String ledgerKey(String stream) {
        return LEDGER_PREFIX + stream;
    }

    /** The stream of a ledger key, or null for keys of other kinds. */
    public static String streamOfLedgerKey(String key) {
        return key != null && key.startsWith(LEDGER_PREFIX) ? key.substring(LEDGER_PREFIX.length()) : null;
    }

    /** {@code streamValue} (a {@link CatalogCodec} record) with its change's markers. */
    public static byte[] withMarkers(byte[] streamValue, Markers m) {
        try {
            ObjectNode root = (ObjectNode) JSON.readTree(streamValue);
            ObjectNode ddl = root.putObject("ddl");
            ddl.put("v", VERSION);
            ddl.put("writer", m.writer());
            ddl.put("atMs", m.atMs());
            var list = ddl.putArray("markers");
            for (Marker marker : m.markers()) {
                list.addObject().put("partitioner", marker.partitioner())
                        .put("value", Base64.getEncoder().encodeToString(marker.value()));
            }
            return JSON.writeValueAsBytes(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The markers of a stream record, or null when it has none. */
    public static Markers markers(byte[] streamValue) {
        try {
            JsonNode ddl = JSON.readTree(streamValue).get("ddl");
            if (ddl == null || ddl.isNull()) {
                return null;
            }
            checkVersion(ddl);
            List<Marker> markers = new ArrayList<>();
            for (JsonNode m : ddl.get("markers")) {
                markers.add(new Marker(m.get("partitioner").asText(), Base64.getDecoder().decode(m.get("value").asText())));
            }
            return new Markers(ddl.get("writer").asText(), ddl.get("atMs").asLong(), markers);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static byte[] claimed(String generation, long version, String by, long atMs, int attempt) {
        ObjectNode o = ledger(generation, version, "claimed", by, atMs);
        o.put("attempt", attempt);
        return bytes(o);
    }

    public static byte[] done(String generation, long version, String by, long atMs) {
        return bytes(ledger(generation, version, "done", by, atMs));
    }

    public static LedgerRecord ledgerRecord(byte[] value) {
        try {
            JsonNode o = JSON.readTree(value);
            checkVersion(o);
            String state = o.get("state").asText();
            if (!state.equals("done") && !state.equals("claimed")) {
                throw new IllegalArgumentException("ledger record of unknown state '" + state + "'");
            }
            return new LedgerRecord(o.get("generation").asText(), o.get("version").asLong(), state.equals("done"),
                    o.get("by").asText(), o.get("atMs").asLong(), o.path("attempt").asInt(0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ObjectNode ledger(String generation, long version, String state, String by, long atMs) {
        ObjectNode o = JSON.createObjectNode();
        o.put("v", VERSION);
        o.put("generation", generation);
        o.put("version", version);
        o.put("state", state);
        o.put("by", by);
        o.put("atMs", atMs);
        return o;
    }

    private static void checkVersion(JsonNode o) {
        int v = o.path("v").asInt(-1);
        if (v != VERSION) {
            throw new IllegalArgumentException("DDL record of format version " + v + " (this node reads " + VERSION + ")");
        }
    }

    private static byte[] bytes(ObjectNode o) {
        try {
            return JSON.writeValueAsBytes(o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
