package io.railgun.node.assignment;

import java.util.List;

/**
 * The processor unit's side of the task group's assignor: what it tells the group leader in its
 * subscription, and where it learns the replicas (and recovery sources) the leader gave it. Handed
 * to the assignor through the consumer's configuration (key {@link #CONFIG_KEY}).
 *
 * <p>Called on the unit's own thread, from inside its consumer's {@code poll}.
 */
public interface AssignmentHolder {
    String CONFIG_KEY = "railgun.assignment.holder";

    /** This unit's node id, internal URL, index and budget, and the copies it holds now. */
    MemberInfo describe(String memberId);

    /**
     * The leader's plan for this unit, before Kafka's rebalance callbacks move its active
     * partitions (the actives in {@code plan} are those Kafka assigns it).
     */
    void planned(MemberAssignment plan, int generation);

    /**
     * The plan just handed over (after {@link #planned}) is not the group's final one, for the
     * reason given: the unit asks its consumer for a rebalance once the poll returns
     * ({@code enforceRebalance}). Kafka would not always start one itself: a static member that
     * rejoins a stable group gets back its stored assignment, follow-up or not.
     */
    void rebalanceDue(String reason);

    /** Helper for tests and tools: the copies a unit reports, as the leader sees them. */
    default List<HeldCopy> held() {
        return describe("").held();
    }
}
