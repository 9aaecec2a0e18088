package io.railgun.engine.oracle;

import io.railgun.engine.reply.StreamReply;
import java.util.List;
import java.util.Map;

/**
 * The side of an exactness run that is checked against the oracle: one stream of some
 * implementation (the in-process LocalStream today; a node over HTTP later). Events and key rows
 * are the oracle's maps.
 */
public interface EngineUnderTest extends AutoCloseable {
    /** Adds a statement and returns its metric names in SELECT order; throws when it is rejected. */
    List<String> addStatement(String sql) throws Exception;

    boolean removeMetric(String name);

    StreamReply process(Map<String, Object> event);

    /** Point read of a metric for the group key in {@code keyRow}. */
    Object read(String metric, Map<String, Object> keyRow);

    @Override
    default void close() {}

    /** Opens engines for cases and tells the oracle how the engine routes events. */
    interface Harness {
        /**
         * @param freshRowBuffers true: every event is written into its own buffer; false: one
         *                        writer's buffer is reused for every event, as a front-end would
         */
        EngineUnderTest open(StreamCase c, boolean freshRowBuffers);

        OracleStream.Router router(StreamCase c);
    }
}
