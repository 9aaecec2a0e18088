package io.railgun.node.catalog;

import io.railgun.engine.plan.MetricDefinition;
import io.railgun.engine.plan.StatementBinder;
import io.railgun.engine.query.QueryException;
import io.railgun.engine.query.QueryParser;
import io.railgun.engine.schema.StreamDefinition;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A stream as the catalog knows it: its definition, its statements, and the version of this state.
 * Immutable; each DDL change makes a new one with {@code version + 1}.
 *
 * <p>{@code generation} tells apart a stream from an earlier one of the same name that was deleted:
 * it names the stream's topics and its tasks' directories.
 */
public final class StreamEntry {
    private final StreamDefinition definition;
    private final String generation;
    private final long version;
    private final List<StatementEntry> statements;
    private final Map<String, MetricDefinition> metrics;
    private final Map<String, String> inputTopics = new java.util.HashMap<>();

    public StreamEntry(StreamDefinition definition, String generation, long version, List<StatementEntry> statements) {
        this.definition = definition;
        this.generation = generation;
        this.version = version;
        this.statements = List.copyOf(statements);
        Map<String, MetricDefinition> byName = new LinkedHashMap<>();
        for (StatementEntry s : this.statements) {
            for (MetricDefinition d : bind(definition, s)) {
                if (!s.removed().contains(d.name())) {
                    byName.put(d.name(), d);
                }
            }
        }
        this.metrics = Collections.unmodifiableMap(byName);
        for (String p : definition.partitioners()) {
            inputTopics.put(p, io.railgun.node.messaging.Topics.input(definition.name(), generation, p));
        }
    }

    /** The input topic of one of the stream's partitioners (named once, not per event). */
    public String inputTopic(String partitioner) {
        return inputTopics.get(partitioner);
    }

    /**
     * Binds a stored statement to a stream definition, its metrics named as when it was added.
     *
     * @throws IllegalStateException when it no longer binds (cannot happen with compatible schema changes)
     */
    public static List<MetricDefinition> bind(StreamDefinition definition, StatementEntry s) {
        try {
            List<MetricDefinition> bound = StatementBinder.bind(definition, QueryParser.parse(s.query()), java.util.Set.of());
            if (bound.size() != s.names().size()) {
                throw new IllegalStateException("statement " + s.id() + " binds to " + bound.size() + " metrics, expected "
                        + s.names().size());
            }
            List<MetricDefinition> named = new ArrayList<>(bound.size());
            for (int i = 0; i < bound.size(); i++) {
                MetricDefinition d = bound.get(i);
                named.add(new MetricDefinition(s.names().get(i), d.statement(), d.aggregate(), d.partitioner(), d.resultType()));
            }
            return named;
        } catch (QueryException e) {
            throw new IllegalStateException("stored statement no longer parses: " + e.getMessage(), e);
        }
    }

    public StreamDefinition definition() {
        return definition;
    }

    public String name() {
        return definition.name();
    }

    public String generation() {
        return generation;
    }

    public long version() {
        return version;
    }

    public List<StatementEntry> statements() {
        return statements;
    }

    /** Every metric of the stream by name, in creation order. */
    public Map<String, MetricDefinition> metrics() {
        return metrics;
    }

    /** The statement that defines {@code metric}, or null. */
    public StatementEntry statementOf(String metric) {
        for (StatementEntry s : statements) {
            if (s.defines(metric)) {
                return s;
            }
        }
        return null;
    }

    public StreamEntry with(StreamDefinition newDefinition, List<StatementEntry> newStatements) {
        return new StreamEntry(newDefinition, generation, version + 1, newStatements);
    }
}
