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
 * Reads this node's reply topic and hands each task's reply to the request waiting for it, by
 * correlation id. Replies nobody waits for (their request timed out, or was sent before a restart
 * and is replayed by a task) are dropped.
 */
final class ReplyCollector implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ReplyCollector.class.getName());

    /** A request waiting for task replies. */
    interface Waiter {
        /** One task's answer; called from the collector's thread or a processor unit's (thread-safe). */
        void accept(TaskAnswer part);
    }

    private final ConcurrentHashMap<Long, Waiter> waiting = new ConcurrentHashMap<>();
    // unique across restarts: the high bits from the start time
    private final AtomicLong nextId = new AtomicLong(System.currentTimeMillis() << 20);
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final AgentRunner runner;

    ReplyCollector(KafkaSettings kafka, String topic) {
        this.consumer = new KafkaConsumer<>(kafka.assignedConsumer("replies", false));
        TopicPartition tp = new TopicPartition(topic, 0);
        consumer.assign(List.of(tp));
        consumer.seekToEnd(List.of(tp));
        consumer.position(tp); // resolve now: replies to requests sent from here on are read
        this.runner = new AgentRunner(new Reader(), Duration.ZERO, Duration.ofSeconds(5), true).start();
    }

    long register(Waiter w) {
        long id = nextId.incrementAndGet();
        waiting.put(id, w);
        return id;
    }

    void forget(long id) {
        waiting.remove(id);
    }

    /** Hands one task's answer to the request waiting for it, if any (any thread: from the topic or in memory). */
    void deliver(long correlation, TaskAnswer reply) {
        Waiter w = waiting.get(correlation);
        if (w == null) {
            return;
        }
        try {
            w.accept(reply);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "reply " + correlation + " could not be handled", e);
        }
    }

    private void deliverEncoded(long correlation, byte[] reply) {
        if (waiting.containsKey(correlation)) {
            TaskAnswer answer;
            try {
                answer = TaskReply.decode(reply);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "reply " + correlation + " does not decode; dropped", e);
                return;
            }
            deliver(correlation, answer);
        }
    }

    int waiting() {
        return waiting.size();
    }

    /** The agent that reads this node's reply topic (replies of tasks on other nodes). */
    private final class Reader implements Agent {
        @Override
        public String roleName() {
            return "railgun-replies";
        }

        @Override
        public int doWork() {
            int n = 0;
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                deliverEncoded(TaskInput.correlation(r.headers()), r.value());
                n++;
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
        runner.close();
    }
}
