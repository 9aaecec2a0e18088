package io.railgun.node.cli.client.send;

import io.railgun.client.EventReply;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What {@code send} has done so far, from the replies: events sent (answered), counted, answered
 * as duplicates, dropped as late, and batches sent again after a 503 or a timeout.
 *
 * <p>A batch sent again may have been counted, in whole or in part, by the attempt that got no
 * answer: those events now answer {@code duplicate}. They are counted here as counted, not as
 * duplicates, unless the same id came earlier in the same batch (then it is a real duplicate). A
 * duplicate of an id sent by an earlier run of {@code send}, in a batch sent again, is counted as
 * counted too: the node cannot tell the two apart. Written by the sending thread only; the
 * shutdown hook of an interrupted {@code send} reads it too (volatile fields: its counts may be a
 * batch behind, and each other's by an event).
 */
final class SendTally {
    private volatile long sent;
    private volatile long counted;
    private volatile long duplicates;
    private volatile long droppedLate;
    private volatile long retriedBatches;

    /** Adds the replies of one batch; {@code retried}: it was answered at a second or later attempt. */
    void add(List<EventReply> replies, boolean retried) {
        Set<String> idsInBatch = retried ? new HashSet<>() : Set.of();
        if (retried) {
            retriedBatches++;
        }
        for (EventReply reply : replies) {
            sent++;
            boolean firstInBatch = !retried || reply.eventId() == null || idsInBatch.add(reply.eventId());
            if (reply.duplicate() && !(retried && firstInBatch)) {
                duplicates++;
            } else if (reply.droppedLate()) {
                droppedLate++;
            } else {
                counted++;
            }
        }
    }

    long sent() {
        return sent;
    }

    long counted() {
        return counted;
    }

    long duplicates() {
        return duplicates;
    }

    long droppedLate() {
        return droppedLate;
    }

    long retriedBatches() {
        return retriedBatches;
    }

    /** {@code 10,000 events in 3.2 s (3,125 events/s): 9,990 counted, 10 duplicates, 0 dropped late}. */
    String summary(long elapsedNanos) {
        double seconds = elapsedNanos / 1e9;
        String text = String.format(Locale.ROOT, "%,d %s in %.1f s (%,d events/s): %,d counted, %,d %s, %,d dropped late",
                sent, sent == 1 ? "event" : "events", seconds, seconds > 0 ? Math.round(sent / seconds) : 0, counted,
                duplicates, duplicates == 1 ? "duplicate" : "duplicates", droppedLate);
        if (retriedBatches > 0) {
            text += String.format(Locale.ROOT, "; %,d %s sent again after a 503 or timeout", retriedBatches,
                    retriedBatches == 1 ? "batch" : "batches");
        }
        return text;
    }
}
