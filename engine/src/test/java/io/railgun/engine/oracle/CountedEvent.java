package io.railgun.engine.oracle;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * An event a task counted: its id, the timestamp it was counted at (its own, or rewritten), its
 * task-local sequence number and field values (lower-case names). Caches expression results per
 * expression object, since a record's filter and argument values never change.
 */
final class CountedEvent {
    private static final Object NULL = new Object();

    final Object id;
    final long timestamp;
    final long originalTimestamp;
    final long seq;
    final int eventIndex;
    final Map<String, Object> fields;
    private final Map<SqlExpr, Object> cache = new IdentityHashMap<>();

    CountedEvent(Object id, long timestamp, long originalTimestamp, long seq, int eventIndex, Map<String, Object> fields) {
        this.id = id;
        this.timestamp = timestamp;
        this.originalTimestamp = originalTimestamp;
        this.seq = seq;
        this.eventIndex = eventIndex;
        this.fields = fields;
    }

    Object eval(SqlExpr e) {
        Object v = cache.get(e);
        if (v == null) {
            v = SqlInterpreter.eval(e, fields::get);
            cache.put(e, v == null ? NULL : v);
            return v;
        }
        return v == NULL ? null : v;
    }

    boolean passes(SqlExpr predicate) {
        return predicate == null || Boolean.TRUE.equals(eval(predicate));
    }
}
