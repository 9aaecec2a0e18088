package io.railgun.engine.reply;

import java.util.Map;

/**
 * The merged reply of all tasks of a stream to one event, as the front-end sends it (SPEC §3.3).
 *
 * @param eventId     the event's id, as a string
 * @param duplicate   some task had already counted this event id
 * @param droppedLate some task dropped it as later than the lateness
 * @param metrics     every metric of the stream by name, in creation order: Long, Double, String,
 *                    Boolean or null
 */
public record StreamReply(String eventId, boolean duplicate, boolean droppedLate, Map<String, Object> metrics) {}
