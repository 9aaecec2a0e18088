package io.railgun.node.ops;

/**
 * Whether the node serves every task it owns, caught up ({@code GET /health/ready}, SPEC §3.5). A
 * read-only view the node wires over its back-end; the HTTP layer only asks it.
 *
 * <p>Implementations are thread-safe and cheap: {@link #check} runs on the thread of each request,
 * reading figures other threads published (volatile snapshots), never the state they own.
 */
@FunctionalInterface
public interface Readiness {
    /** Always ready, with no task: for an HTTP API without a back-end of its own (tests). */
    Readiness ALWAYS = () -> ReadinessReport.ready(0);

    /** The node's readiness now. */
    ReadinessReport check();
}
