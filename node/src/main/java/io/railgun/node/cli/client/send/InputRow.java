package io.railgun.node.cli.client.send;

import java.util.Map;

/**
 * One event read from the input, and where it was.
 *
 * @param line  the line it starts on (1 is the first line of the input, a CSV header included)
 * @param event field name → value (Long, Double, String, Boolean, null), in the input's order
 */
record InputRow(long line, Map<String, Object> event) {
}
