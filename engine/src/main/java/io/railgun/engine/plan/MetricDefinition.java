package io.railgun.engine.plan;

import io.railgun.engine.expr.ValueType;
import io.railgun.engine.query.AggregateCall;
import io.railgun.engine.query.Statement;

/**
 * One metric of a stream, as bound by {@link StatementBinder}: an aggregate of a statement, its unique
 * name, the partitioner whose tasks compute it and the type of its values.
 *
 * @param name        unique name within the stream
 * @param statement   the statement it comes from (shares window, filter and group-by with its siblings)
 * @param aggregate   its aggregate call in that statement
 * @param partitioner the stream partitioner (topic) it is computed on
 * @param resultType  type of its values in replies
 */
public record MetricDefinition(
        String name, Statement statement, AggregateCall aggregate, String partitioner, ValueType resultType) {}
