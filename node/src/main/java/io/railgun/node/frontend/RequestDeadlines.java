package io.railgun.node.frontend;

import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The deadlines of the requests waiting for task answers, in registration order. Every request has
 * the same timeout, so registration order is deadline order, and one FIFO queue replaces a timer
 * per request: {@link #add} appends, {@link #expire} pops the head while it was answered or is past
 * its deadline. A request stays queued until everything registered before it is answered or
 * expired, so the queue holds at most the requests of one timeout period.
 *
 * <p>{@link #add} from any thread; {@link #expire} from one thread (the reply collector's agent).
 */
final class RequestDeadlines {
    private static final System.Logger LOG = System.getLogger(RequestDeadlines.class.getName());

    private record Pending(long correlation, long deadlineNanos, ReplyCollector.Waiter waiter) {}

    private final ConcurrentLinkedQueue<Pending> byAge = new ConcurrentLinkedQueue<>();

    void add(long correlation, long deadlineNanos, ReplyCollector.Waiter waiter) {
        byAge.add(new Pending(correlation, deadlineNanos, waiter));
    }

    /**
     * Expires the requests still in {@code waiting} whose deadline is at or before {@code nowNanos}
     * (removing them from it first, so an answer racing the expiry is dropped), and forgets the
     * answered ones at the head of the queue.
     *
     * @return how many were expired
     */
    int expire(long nowNanos, Map<Long, ReplyCollector.Waiter> waiting) {
        int expired = 0;
        Pending p;
        while ((p = byAge.peek()) != null) {
            if (waiting.containsKey(p.correlation) && p.deadlineNanos - nowNanos > 0) {
                break;
            }
            byAge.poll();
            if (waiting.remove(p.correlation) != null) {
                expired++;
                try {
                    p.waiter.expire();
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.ERROR, "request " + p.correlation + " could not be expired", e);
                }
            }
        }
        return expired;
    }

    /** Requests queued (answered ones not yet popped included). */
    int size() {
        return byAge.size();
    }
}
