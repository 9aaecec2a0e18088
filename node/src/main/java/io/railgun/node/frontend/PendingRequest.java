package io.railgun.node.frontend;

import java.util.concurrent.CompletableFuture;

/**
 * A request of the front-end waiting for task answers: its future, completed once, by the first of
 * its answers being complete, a failure to write it to Kafka, or its timeout. Completing it also
 * takes it out of the {@link ReplyCollector}, so late answers are dropped. Thread-safe: answers
 * come from processor units and the collector's agent, failures from Kafka's producer thread.
 */
abstract class PendingRequest<T> implements ReplyCollector.Waiter {
    final CompletableFuture<T> future = new CompletableFuture<>();
    private final ReplyCollector replies;
    private final String what;
    private final long timeoutMs;
    private volatile long correlation = -1;

    /** @param what what the request waits for, for the timeout's message: "the event's replies" */
    PendingRequest(ReplyCollector replies, String what, long timeoutMs) {
        this.replies = replies;
        this.what = what;
        this.timeoutMs = timeoutMs;
    }

    /** Registers the request with the collector; returns its correlation id for the records it sends. */
    final long register() {
        long id = replies.register(this);
        correlation = id;
        return id;
    }

    final void succeed(T value) {
        replies.forget(correlation);
        future.complete(value);
    }

    final void fail(Throwable e) {
        replies.forget(correlation);
        future.completeExceptionally(e);
    }

    @Override
    public final void expire() {
        future.completeExceptionally(ApiException.unavailable("timeout", what + " did not arrive within " + timeoutMs
                + " ms (tasks may be recovering or rebalancing); retry the request: an event already counted is"
                + " answered as a duplicate", 1));
    }
}
