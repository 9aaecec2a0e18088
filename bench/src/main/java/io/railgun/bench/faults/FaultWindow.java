package io.railgun.bench.faults;

/**
 * A span of the run, from when a fault was injected to when the next one was (or the load stopped):
 * the fault itself, its repair and the settling after it.
 *
 * @param name    what happened in it, e.g. {@code "kill-node n2"}
 * @param startNs {@link System#nanoTime()} at its start
 * @param endNs   {@link System#nanoTime()} at its end
 */
record FaultWindow(String name, long startNs, long endNs) {}
