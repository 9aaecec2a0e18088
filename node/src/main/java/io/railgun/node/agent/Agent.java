package io.railgun.node.agent;

/**
 * One long-running job of the node with a thread of its own (the Agrona model): a processor unit,
 * the control-topic reader, the reply collector, the Kafka-native ingestion. The agent owns its
 * mutable state; other threads reach it only through thread-safe hand-offs it documents (a queue,
 * a volatile flag, a Kafka client's {@code wakeup}).
 *
 * <p>Call order, all on the agent's thread: {@link #onStart} once, {@link #doWork} until the
 * {@link AgentRunner} is stopped, then {@link #onClose} once, whatever happened before. Only
 * {@link #wake} is called from other threads.
 */
public interface Agent {
    /** The thread's name, e.g. {@code railgun-unit-0}. */
    String roleName();

    /** Before the first {@link #doWork}. */
    default void onStart() throws Exception {}

    /**
     * One round of work; may block for a bounded time waiting for input (a Kafka poll). Throwing
     * {@link AgentStopped} (or Kafka's {@code WakeupException} after {@link #wake}) ends the loop
     * quietly; any other exception is logged and ends it too.
     *
     * @return how much work was done: 0 when there was nothing to do
     */
    int doWork() throws Exception;

    /** After the last {@link #doWork}: release what the agent holds (final checkpoints, clients). */
    default void onClose() {}

    /** Interrupts a blocking {@link #doWork} so the agent notices it must stop (any thread). */
    default void wake() {}

    /** Thrown by {@link #doWork} to end the loop without an error. */
    final class AgentStopped extends RuntimeException {
        public AgentStopped() {
            super(null, null, false, false);
        }
    }
}
