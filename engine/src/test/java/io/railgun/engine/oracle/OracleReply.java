package io.railgun.engine.oracle;

import java.util.List;
import java.util.Map;

/**
 * The oracle's merged reply to one event: duplicate / dropped when any task says so, and every
 * metric of the stream (creation order) for the event's group keys at its task's stream time.
 */
public record OracleReply(Object eventId, boolean duplicate, boolean droppedLate, Map<String, ExpectedValue> metrics, List<TaskOutcome> tasks) {}
