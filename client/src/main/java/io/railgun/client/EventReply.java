package io.railgun.client;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The node's reply to one event: the body of {@code POST /v1/streams/{stream}/events}, or one
 * element of the array of {@code POST /v1/streams/{stream}/events:batch} (SPEC §3.3):
 * {@code {"eventId": "e1", "metrics": {"card_sum_5m": 12.5, "card_count_5m": 2}, "duplicate":
 * true, "dropped": "late"}} (the last two only when they apply).
 *
 * <p>Immutable and safe to share between threads.
 *
 * @param eventId     the event's id as text (a numeric id is given in its decimal form), or null
 *                    when the node sent none
 * @param metrics     every metric of the stream evaluated for this event, in the node's order;
 *                    values are {@link Long} (JSON integers), {@link Double} (JSON numbers with a
 *                    fraction or exponent, so {@code 12.0} is a Double), {@link String},
 *                    {@link Boolean} or null (SQL NULL: e.g. SUM of nothing). Unmodifiable.
 * @param duplicate   {@code "duplicate": true}: the event id had already been counted; the values
 *                    are the current ones, without counting it again
 * @param droppedLate {@code "dropped": "late"}: the event came later than the stream's lateness
 *                    and was dropped; the values are the current ones, without it
 */
public record EventReply(String eventId, Map<String, Object> metrics, boolean duplicate, boolean droppedLate) {

    public EventReply {
        // Map.copyOf would lose the order and refuse the null values SQL needs.
        metrics = metrics == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
    }

    /** The value of metric {@code name}: Long, Double, String, Boolean or null (also null when absent). */
    public Object metric(String name) {
        return metrics.get(name);
    }
}
