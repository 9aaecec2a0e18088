package io.railgun.node.frontend;

import io.railgun.engine.reply.ReplyMerger;
import io.railgun.engine.reply.StreamReply;
import io.railgun.engine.reply.TaskAnswer;
import io.railgun.node.catalog.Catalog;
import io.railgun.node.catalog.StreamEntry;
import java.util.BitSet;

/**
 * An event waiting for the answers of the K tasks it went to (one per partitioner of its stream),
 * merged into the client's reply once each has answered. A task may answer more than once: its
 * active copy and its hot replicas process the same input in the same order from the same state
 * and all answer, with the same values. Each part (partitioner index) is counted once, by its first
 * answer; later answers of a part, and every answer after completion, are dropped. An error as a
 * part's first answer fails the event.
 *
 * <p>Thread-safe: {@link #accept} is synchronized (answers come from processor units' threads and
 * the reply collector's).
 */
final class EventMerge extends PendingRequest<StreamReply> {
    private final Catalog catalog;
    private final StreamEntry entry;
    private final String eventId;
    private final int parts;
    private final ReplyMerger merger;
    /** Parts answered: bits 0-63 here, more (a stream with over 64 partitioners) in {@link #more}. */
    private long answered;
    private BitSet more;
    private boolean done;

    EventMerge(ReplyCollector replies, long timeoutMs, Catalog catalog, StreamEntry entry, int parts, String eventId) {
        super(replies, "the event's replies", timeoutMs);
        this.catalog = catalog;
        this.entry = entry;
        this.parts = parts;
        this.merger = new ReplyMerger(parts);
        this.eventId = eventId;
    }

    @Override
    public synchronized void accept(int part, TaskAnswer answer) {
        if (done || part < 0 || part >= parts || !firstAnswerOf(part)) {
            return;
        }
        switch (answer) {
            case TaskAnswer.Event p -> {
                if (merger.add(p)) {
                    done = true;
                    StreamEntry now = catalog.stream(entry.name());
                    succeed(merger.reply(eventId, (now != null ? now : entry).metrics().keySet()));
                }
            }
            case TaskAnswer.Error e -> {
                done = true;
                fail(new ApiException(e.status(), e.code(), e.message()));
            }
            case TaskAnswer.Read r -> {
                done = true;
                fail(new IllegalStateException("a read's reply to an event: " + r));
            }
        }
    }

    /** Marks {@code part} answered; false when it was already. */
    private boolean firstAnswerOf(int part) {
        if (part < 64) {
            long bit = 1L << part;
            boolean first = (answered & bit) == 0;
            answered |= bit;
            return first;
        }
        if (more == null) {
            more = new BitSet();
        }
        boolean first = !more.get(part);
        more.set(part);
        return first;
    }

    /** Failures of the write to Kafka: the event fails unless it completed already. */
    synchronized void failWrite(Throwable e) {
        if (!done) {
            done = true;
            fail(e);
        }
    }
}
