package io.railgun.node.messaging;

import io.railgun.engine.reply.TaskAnswer;

/**
 * The short cut for replies to this node's own front-end: a task whose event came from the front-end
 * of the node it runs on hands the reply over in memory instead of producing it to the node's reply
 * topic and having the front-end fetch it back (two Kafka requests per event saved; on a single
 * node, every reply). The answer is handed over as the value the task built: never encoded. Replies to other nodes still go through their reply topics.
 */
public final class LocalReplies {
    /** Where a reply goes: the front-end's waiting request for its correlation id. */
    @FunctionalInterface
    public interface Sink {
        /** @param part the answering task's partitioner index in its stream (see {@link TaskReply}) */
        void deliver(long correlation, int part, TaskAnswer reply);
    }

    private final String topic;
    private volatile Sink sink;

    public LocalReplies(String replyTopic) {
        this.topic = replyTopic;
    }

    /** Connects the front-end once it exists; until then replies go through Kafka. */
    public void attach(Sink frontEnd) {
        this.sink = frontEnd;
    }

    /** Delivers the reply in memory when it is for this node's front-end; false when it must go through Kafka. */
    public boolean deliver(String replyTopic, long correlation, int part, TaskAnswer reply) {
        Sink s = sink;
        if (s == null || correlation < 0 || !topic.equals(replyTopic)) {
            return false;
        }
        s.deliver(correlation, part, reply);
        return true;
    }
}
