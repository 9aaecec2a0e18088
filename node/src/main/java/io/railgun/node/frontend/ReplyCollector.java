package io.railgun.node.frontend;

import io.railgun.engine.reply.TaskAnswer;
import io.railgun.node.agent.Agent;
import io.railgun.node.agent.AgentRunner;
import io.railgun.node.messaging.KafkaSettings;
import io.railgun.node.messaging.TaskInput;
import io.railgun.node.messaging.TaskReply;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * The requests of this node's front-end waiting for task answers, by correlation id: answers come
 * from this node's processor units in memory ({@link #deliver}) or, from tasks on other nodes,
 * through this node's reply topic, which the collector's agent reads. Answers nobody waits for
 * (their request timed out, or was sent before a restart and is replayed by a task) are dropped.
 *
 * <p>Deadlines: every request gets the same timeout, so registration order is deadline order; one
 * FIFO queue holds the requests by age and the agent expires those past their deadline at most
 * every {@value #SWEEP_EVERY_MS} ms (so a request times out within that much after its timeout).
 * That costs a queue append per request instead of a scheduled timer task.
 *
 * <p>Thread-safe: {@link #register}, {@link #forget} and {@link #deliver} from any thread; the
 * reply-topic consumer and the sweep belong to the agent's thread.
 */
final class ReplyCollector implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ReplyCollector.class.getName());
    static final long SWEEP_EVERY_MS = 50;

    /** A request waiting for task answers. */
    interface Waiter {
        /**
         * One task's answer: {@code part} is the index of the task's partitioner in its stream. The
         * same part may answer more than once (a task's active copy and its replicas all answer):
         * the waiter counts the first. Called from the collector's thread or a processor unit's
         * (thread-safe).
         */
        void accept(int part, TaskAnswer answer);

        /** The request's timeout passed before its answers came (the collector's thread). */
        void expire();
    }

    private final ConcurrentHashMap<Long, Waiter> waiting = new ConcurrentHashMap<>();
    private final RequestDeadlines deadlines = new RequestDeadlines();
    // unique across restarts: the high bits from the start time
    private final AtomicLong nextId = new AtomicLong(System.currentTimeMillis() << 20);
    private final long timeoutNanos;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final AgentRunner runner;

    ReplyCollector(KafkaSettings kafka, String topic, long timeoutMs) {
        this.timeoutNanos = timeoutMs * 1_000_000L;
        this.consumer = new KafkaConsumer<>(kafka.assignedConsumer("replies", false));
        TopicPartition tp = new TopicPartition(topic, 0);
        consumer.assign(List.of(tp));
        consumer.seekToEnd(List.of(tp));
        consumer.position(tp); // resolve now: replies to requests sent from here on are read
        this.runner = new AgentRunner(new Reader(), Duration.ZERO, Duration.ofSeconds(5), true).start();
    }

    /**
     * A collector without a reply topic: answers come only in memory ({@link #deliver}) and nothing
     * expires requests. For tests of the waiters.
     */
    ReplyCollector(long timeoutMs) {
        this.timeoutNanos = timeoutMs * 1_000_000L;
        this.consumer = null;
        this.runner = null;
    }

    /** Registers a request; its {@link Waiter#expire} is called if it is still waiting after the timeout. */
    long register(Waiter w) {
        long id = nextId.incrementAndGet();
        waiting.put(id, w);
        deadlines.add(id, System.nanoTime() + timeoutNanos, w);
        return id;
    }

    /** The request got its answers (or failed): answers that still come for it are dropped. */
    void forget(long id) {
        waiting.remove(id);
    }

    /** Hands one task's answer to the request waiting for it, if any (any thread: from the topic or in memory). */
    void deliver(long correlation, int part, TaskAnswer reply) {
        Waiter w = waiting.get(correlation);
        if (w == null) {
            return;
        }
        try {
            w.accept(part, reply);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "reply " + correlation + " could not be handled", e);
        }
    }

    private void deliverEncoded(long correlation, byte[] reply) {
        if (waiting.containsKey(correlation)) {
            TaskAnswer answer;
            int part;
            try {
                part = TaskReply.part(reply);
                answer = TaskReply.decode(reply);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "reply " + correlation + " does not decode; dropped", e);
                return;
            }
            deliver(correlation, part, answer);
        }
    }

    int waiting() {
        return waiting.size();
    }

    /** The correlation ids of the requests waiting (tests). */
    java.util.Set<Long> waitingIds() {
        return java.util.Set.copyOf(waiting.keySet());
    }

    /** The agent that reads this node's reply topic (answers of tasks on other nodes) and expires requests. */
    private final class Reader implements Agent {
        private long lastSweep = System.nanoTime();

        @Override
        public String roleName() {
            return "railgun-replies";
        }

        @Override
        public int doWork() {
            int n = 0;
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(SWEEP_EVERY_MS))) {
                deliverEncoded(TaskInput.correlation(r.headers()), r.value());
                n++;
            }
            long now = System.nanoTime();
            if (now - lastSweep >= SWEEP_EVERY_MS * 1_000_000L) {
                deadlines.expire(now, waiting);
                lastSweep = now;
            }
            return n;
        }

        @Override
        public void wake() {
            consumer.wakeup();
        }

        @Override
        public void onClose() {
            consumer.close();
        }
    }

    @Override
    public void close() {
        if (runner != null) {
            runner.close();
        }
    }
}
