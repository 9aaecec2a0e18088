package io.railgun.node.frontend;

/**
 * A metric's value for one key at its task's stream time (SPEC §3.4).
 *
 * @param value      Long, Double, String, Boolean or null
 * @param streamTime the task's stream time, or null before its first event
 */
public record PointRead(String metric, Object value, Long streamTime) {}
