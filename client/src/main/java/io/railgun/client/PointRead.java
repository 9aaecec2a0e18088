package io.railgun.client;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A metric's current value for one key, without sending an event: the body of {@code GET
 * /v1/streams/{stream}/metrics/{name}?field=value...} (SPEC §3.4), {@code {"metric": "card_sum_5m",
 * "key": {"card": "c1"}, "value": 12.5, "streamTime": 1700000000000}}.
 *
 * <p>Immutable and safe to share between threads.
 *
 * @param metric     the metric's name
 * @param key        the GROUP BY fields and their values, in the node's order (unmodifiable)
 * @param value      Long, Double, String, Boolean or null, typed as in {@link EventReply#metrics()}
 * @param streamTime the stream time (epoch ms) of the partition the value was read at, or null when
 *                   the node sent none (a partition that has seen no event yet)
 */
public record PointRead(String metric, Map<String, Object> key, Object value, Long streamTime) {

    public PointRead {
        key = key == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(key));
    }
}
