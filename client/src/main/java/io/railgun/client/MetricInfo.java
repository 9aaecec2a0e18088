package io.railgun.client;

import java.util.List;
import java.util.Objects;

/**
 * One element of the {@code "metrics"} array of {@code GET /v1/streams/{stream}/metrics} (SPEC
 * §3.2), whose body is {@code {"metrics": [{"name": ..., "statement": ..., "partitioner": ...,
 * "groupBy": [...]}, ...]}}. Only {@code name} and {@code statement} are promised by the SPEC; the
 * others are read when the node sends them.
 *
 * @param name        the metric's name, unique in its stream
 * @param statement   the statement that defined it (and its sibling metrics)
 * @param partitioner the partitioner whose topic computes it, or null when the node does not say
 * @param groupBy     its GROUP BY fields in order (the keys of a point read), empty when the node
 *                    does not say
 */
public record MetricInfo(String name, String statement, String partitioner, List<String> groupBy) {

    public MetricInfo {
        Objects.requireNonNull(name, "name");
        groupBy = groupBy == null ? List.of() : List.copyOf(groupBy);
    }

    /** A metric described by its name and statement only. */
    public MetricInfo(String name, String statement) {
        this(name, statement, null, List.of());
    }
}
