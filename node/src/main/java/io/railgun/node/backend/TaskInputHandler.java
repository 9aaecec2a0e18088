package io.railgun.node.backend;

import io.railgun.engine.reply.TaskAnswer;
import io.railgun.node.messaging.LocalReplies;
import io.railgun.node.messaging.TaskInput;
import io.railgun.node.messaging.TaskReply;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Runs one input record through its task and sends the task's answer to the front-end that waits
 * for it: in memory when that front-end is this node's ({@link LocalReplies}), else to its reply
 * topic, encoded with the task's part ({@link TaskReply}). Active tasks and replicas answer alike
 * (the front-end counts each part once).
 *
 * <p>A record older than {@code replyHorizonMs} (by the timestamp the front-end gave it when it sent
 * it) gets no reply: its request has timed out long ago, so a task replaying its input after a
 * restart or a recovery does not flood reply topics. The task still processes it: only the reply
 * is skipped. The horizon is the request timeout plus a minute for clocks that differ between nodes.
 *
 * <p>Not thread-safe: one per processor unit, called on its thread.
 */
final class TaskInputHandler {
    private static final System.Logger LOG = System.getLogger(TaskInputHandler.class.getName());
    /** How far the clocks of two nodes may differ before a reply still awaited is taken for a stale one. */
    static final long CLOCK_SKEW_MS = 60_000;

    private final LocalReplies localReplies;
    private final KafkaProducer<byte[], byte[]> producer;
    private final long replyHorizonMs;
    private final UnitStats stats;
    private final TaskReply.Writer writer = new TaskReply.Writer();
    private byte[] lastReplyTopicBytes = new byte[0];
    private String lastReplyTopic = "";

    TaskInputHandler(LocalReplies localReplies, KafkaProducer<byte[], byte[]> producer, long requestTimeoutMs,
            UnitStats stats) {
        this.localReplies = localReplies;
        this.producer = producer;
        this.replyHorizonMs = requestTimeoutMs + CLOCK_SKEW_MS;
        this.stats = stats;
    }

    /** Handles {@code r} on task {@code t}; {@code nowMs} is the wall clock of the poll that returned it. */
    void handle(TaskRunner t, ConsumerRecord<byte[], byte[]> r, long nowMs) {
        TaskAnswer reply;
        try {
            reply = t.handle(r);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "task " + t.partition + ": record at offset " + r.offset() + " failed", e);
            t.processor().skipped(r.offset());
            reply = new TaskAnswer.Error(500, "task_failed", "the task could not process the record: " + e);
        }
        stats.records++;
        if (reply == null) {
            return;
        }
        Header replyTo = r.headers().lastHeader(TaskInput.REPLY_TO);
        Header correlation = r.headers().lastHeader(TaskInput.CORRELATION);
        if (replyTo == null || correlation == null) {
            return;
        }
        if (nowMs - r.timestamp() > replyHorizonMs) {
            stats.repliesSkipped++;
            return;
        }
        String topic = replyTopic(replyTo.value());
        if (!localReplies.deliver(topic, TaskInput.correlation(r.headers()), t.part, reply)) {
            producer.send(new ProducerRecord<>(topic, 0, null, null, writer.encode(t.part, reply),
                    new RecordHeaders(new Header[] {correlation})));
        }
    }

    private String replyTopic(byte[] bytes) {
        if (!Arrays.equals(bytes, lastReplyTopicBytes)) {
            lastReplyTopicBytes = bytes;
            lastReplyTopic = new String(bytes, StandardCharsets.UTF_8);
        }
        return lastReplyTopic;
    }
}
