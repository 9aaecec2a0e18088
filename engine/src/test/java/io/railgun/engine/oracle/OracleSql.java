package io.railgun.engine.oracle;

import io.railgun.engine.query.QueryException;
import io.railgun.engine.query.QueryParser;
import java.util.List;

/**
 * Statement text to the oracle's {@link MetricQuery}, through the engine's parser (which has its own
 * tests); the oracle's evaluation stays independent of the engine's.
 */
public final class OracleSql {
    private OracleSql() {}

    /** @param names the metric names the engine returned for it (for aggregates without AS), or null */
    public static MetricQuery parse(String sql, List<String> names) throws QueryException {
        return EngineStatements.toQuery(QueryParser.parse(sql), names);
    }
}
