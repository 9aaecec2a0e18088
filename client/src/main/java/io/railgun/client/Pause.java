package io.railgun.client;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * How a {@link RailgunClient} waits between attempts of a request ({@link RetryPolicy}): blocking
 * for the synchronous calls, through a delayed executor for the asynchronous ones. Injected so that
 * tests see the waits without waiting. Implementations must be thread-safe.
 */
interface Pause {
    /** Blocks the calling thread for {@code wait}. */
    void sleep(Duration wait) throws InterruptedException;

    /** An executor that runs each task after {@code wait}, on {@code executor} (null: the common pool). */
    Executor after(Duration wait, Executor executor);

    /** Real time. */
    Pause SYSTEM = new Pause() {
        @Override
        public void sleep(Duration wait) throws InterruptedException {
            Thread.sleep(wait);
        }

        @Override
        public Executor after(Duration wait, Executor executor) {
            return executor == null ? CompletableFuture.delayedExecutor(wait.toNanos(), TimeUnit.NANOSECONDS)
                    : CompletableFuture.delayedExecutor(wait.toNanos(), TimeUnit.NANOSECONDS, executor);
        }
    };
}
