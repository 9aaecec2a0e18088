package io.railgun.bench.faults;

/**
 * One HTTP request of the generator and its outcome. Times are {@link System#nanoTime()}; latency is
 * measured from when the request was due ({@code dueNs}, open loop), not from when it left.
 *
 * @param event    index of the {@link SentEvent}
 * @param attempt  1 for the first request of the event, 2.. for its retries (same event id)
 * @param node     the node it was sent to
 * @param dueNs    when it was due
 * @param sentNs   when it was handed to the HTTP client
 * @param doneNs   when its reply (or failure) came
 * @param status   the HTTP status, or {@link #CONNECTION_ERROR}
 * @param body     the reply body, or the failure's description
 */
record Attempt(int event, int attempt, String node, long dueNs, long sentNs, long doneNs, int status, String body) {
    /** The status of a request that got no HTTP reply (refused, reset, timed out). */
    static final int CONNECTION_ERROR = 0;

    long latencyNs() {
        return doneNs - dueNs;
    }
}
