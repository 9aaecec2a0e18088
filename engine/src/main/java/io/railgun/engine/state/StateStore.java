package io.railgun.engine.state;

/**
 * Where a task keeps its aggregation state: one {@link KeyedState} per group-by node of its plan,
 * named by the node's identity in the plan. Implementations: {@link InMemoryStateStore} now; the
 * durable store (RocksDB with an in-memory hot tier) implements the same interface.
 */
public interface StateStore {
    /** The keyed state of a plan node, created empty on first use. */
    KeyedState keyedState(String name);

    /** Drops a node's state (its metrics were deleted). */
    void drop(String name);
}
