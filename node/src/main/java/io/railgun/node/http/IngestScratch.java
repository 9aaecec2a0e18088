package io.railgun.node.http;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;

/**
 * What one event request needs, pre-allocated and reused: the body buffer, the JSON-to-row codec
 * (with its row writer) and the response buffer. Requests run on virtual threads or on the event
 * loop and finish on whichever thread completes their replies, where thread-locals would not be
 * reused, so instances live in a bounded {@link Pool}.
 */
final class IngestScratch {
    /** Buffers grown past this are dropped after use rather than pooled, so one huge batch does not pin memory. */
    static final int MAX_POOLED_BYTES = 1 << 20;

    final GrowableBytes body = new GrowableBytes(4096);
    final GrowableBytes out = new GrowableBytes(4096);
    final EventJson events = new EventJson();

    /**
     * A bounded pool of scratches. Thread-safe. A scratch whose row may still be read by the front-end
     * (its future not complete) is returned only when that future completes.
     */
    static final class Pool {
        private final ArrayBlockingQueue<IngestScratch> free;

        Pool(int capacity) {
            free = new ArrayBlockingQueue<>(capacity);
        }

        IngestScratch acquire() {
            IngestScratch s = free.poll();
            return s != null ? s : new IngestScratch();
        }

        /** Returns {@code s} now, or when {@code pending} completes if it has not yet. */
        void release(IngestScratch s, CompletableFuture<?> pending) {
            if (pending == null || pending.isDone()) {
                offer(s);
            } else {
                pending.whenComplete((r, e) -> offer(s));
            }
        }

        private void offer(IngestScratch s) {
            if (s.body.array().length <= MAX_POOLED_BYTES && s.out.array().length <= MAX_POOLED_BYTES
                    && s.events.writer().buffer().length <= MAX_POOLED_BYTES) {
                free.offer(s);
            }
        }
    }
}
