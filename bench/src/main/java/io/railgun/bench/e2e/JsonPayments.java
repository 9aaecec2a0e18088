package io.railgun.bench.e2e;

import io.railgun.bench.data.PaymentGenerator;
import io.railgun.engine.event.EventRow;
import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.schema.FieldType;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Payments of the shared generator, each serialised once as the JSON body of {@code POST
 * /v1/streams/{stream}/events} before the run, so the injector only hands bytes to the client:
 * <pre>
 * {"id":"e0","ts":1700000000000,"card":"c17","merchant":"m3","amount":31.07,"country":"PT",
 *  "online":false,"mcc":5042}
 * </pre>
 * The generator writes binary rows; they are read back field by field in {@link PaymentGenerator#FIELDS}
 * order ({@code ts} as epoch milliseconds), so every harness sees the same events. Immutable after
 * {@link #generate}.
 */
final class JsonPayments {
    final byte[][] bodies;
    final String[] ids;
    /** Each event's {@code ts}, and where its digits start in its body (see {@link #shiftTimestamp}). */
    final long[] timestamps;
    private final int[] timestampAt;
    final long bytes;

    private JsonPayments(byte[][] bodies, String[] ids, long[] timestamps, int[] timestampAt, long bytes) {
        this.bodies = bodies;
        this.ids = ids;
        this.timestamps = timestamps;
        this.timestampAt = timestampAt;
        this.bytes = bytes;
    }

    int size() {
        return bodies.length;
    }

    /**
     * The next {@code count} payments of {@code generator}, their ids prefixed by {@code idPrefix} (ids
     * stay unique on the node across the rates of a sweep, each with its own generator); {@code sums}
     * adds the amounts of the cards it follows.
     */
    static JsonPayments generate(PaymentGenerator generator, int count, String idPrefix, CardSums sums) {
        String[] names = PaymentGenerator.FIELDS.keySet().toArray(String[]::new);
        FieldType[] types = PaymentGenerator.FIELDS.values().toArray(FieldType[]::new);
        int idField = List.of(names).indexOf("id");
        int tsField = List.of(names).indexOf("ts");
        int cardField = List.of(names).indexOf("card");
        int amountField = List.of(names).indexOf("amount");
        EventRowWriter w = new EventRowWriter();
        StringBuilder json = new StringBuilder(160);
        byte[][] bodies = new byte[count][];
        String[] ids = new String[count];
        long[] timestamps = new long[count];
        int[] timestampAt = new int[count];
        long bytes = 0;
        for (int i = 0; i < count; i++) {
            generator.next(w);
            EventRow row = w.row();
            json.setLength(0);
            json.append('{');
            for (int f = 0; f < names.length; f++) {
                if (f > 0) {
                    json.append(',');
                }
                json.append('"').append(names[f]).append("\":");
                if (row.isNull(f)) {
                    json.append("null");
                    continue;
                }
                switch (types[f]) {
                    case STRING -> {
                        String s = f == idField ? idPrefix + row.getString(f) : row.getString(f);
                        if (f == idField) {
                            ids[i] = s;
                        }
                        appendString(json, s);
                    }
                    case LONG -> json.append(row.getLong(f));
                    case TIMESTAMP -> {
                        if (f == tsField) {
                            timestamps[i] = row.getLong(f);
                            timestampAt[i] = json.length(); // ASCII up to here: chars are bytes
                        }
                        json.append(row.getLong(f));
                    }
                    case DOUBLE -> json.append(row.getDouble(f));
                    case BOOLEAN -> json.append(row.getBoolean(f));
                }
            }
            json.append('}');
            bodies[i] = json.toString().getBytes(StandardCharsets.UTF_8);
            bytes += bodies[i].length;
            sums.add(row.getString(cardField), row.getDouble(amountField), row.getLong(tsField));
        }
        return new JsonPayments(bodies, ids, timestamps, timestampAt, bytes);
    }

    /**
     * Rewrites event {@code i}'s {@code ts} in its body as {@code timestamps[i] + deltaMs}, in place:
     * the injector moves the measured events back in event time when it skipped warm-up events, so
     * that event time goes on without a jump (a jump would make the requests still in flight late).
     * Only before the body is sent; a new value with another number of digits is not written.
     */
    void shiftTimestamp(int i, long deltaMs) {
        String digits = Long.toString(timestamps[i] + deltaMs);
        if (digits.length() != Long.toString(timestamps[i]).length()) {
            return;
        }
        for (int k = 0; k < digits.length(); k++) {
            bodies[i][timestampAt[i] + k] = (byte) digits.charAt(k);
        }
    }

    private static void appendString(StringBuilder json, String s) {
        json.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                json.append('\\').append(c);
            } else if (c < 0x20) {
                json.append(String.format("\\u%04x", (int) c));
            } else {
                json.append(c);
            }
        }
        json.append('"');
    }
}
