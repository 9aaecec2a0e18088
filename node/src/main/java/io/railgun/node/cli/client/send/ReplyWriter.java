package io.railgun.node.cli.client.send;

import io.railgun.client.EventReply;
import io.railgun.node.cli.client.Json;

import java.io.IOException;
import java.io.Writer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes the node's replies as NDJSON, one line per event in input order, in the node's shape:
 * {@code {"eventId": "e1", "metrics": {...}, "duplicate": true, "dropped": "late"}} (the flags only
 * when they apply; the id a number for a {@code long} id field). Used by the sending thread only.
 */
final class ReplyWriter {
    private final Writer out;
    private final boolean longIds;

    /** @param longIds the stream's event id field is a {@code long}: ids are written as numbers */
    ReplyWriter(Writer out, boolean longIds) {
        this.out = out;
        this.longIds = longIds;
    }

    void write(EventReply reply) throws IOException {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("eventId", id(reply.eventId()));
        line.put("metrics", reply.metrics());
        if (reply.duplicate()) {
            line.put("duplicate", true);
        }
        if (reply.droppedLate()) {
            line.put("dropped", "late");
        }
        out.write(Json.line(line));
        out.write('\n');
    }

    void flush() throws IOException {
        out.flush();
    }

    private Object id(String eventId) {
        if (longIds && eventId != null) {
            try {
                return Long.parseLong(eventId);
            } catch (NumberFormatException e) {
                return eventId;
            }
        }
        return eventId;
    }
}
