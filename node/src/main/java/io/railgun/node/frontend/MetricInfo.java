package io.railgun.node.frontend;

/**
 * A metric of a stream as listed by {@code GET /v1/streams/{stream}/metrics}.
 *
 * @param name        unique per stream
 * @param statement   the statement that defined it (with its sibling metrics)
 * @param partitioner the partitioner topic its tasks read
 * @param groupBy     its GROUP BY fields, in order (the keys of a point read)
 */
public record MetricInfo(String name, String statement, String partitioner, java.util.List<String> groupBy) {}
