package io.railgun.node.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.reply.TaskAnswer;
import io.railgun.engine.task.ReplyStatus;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TaskReplyTest {
    private final TaskReply.Writer writer = new TaskReply.Writer();

    @Test
    void eventAnswersRoundTripWithEveryValueType() {
        String[] names = {"n", "l", "d", "s", "b", "é"};
        Object[] values = {null, -3L, 2.5, "x€y", true, Long.MIN_VALUE};
        TaskAnswer decoded = TaskReply.decode(writer.encode(0, new TaskAnswer.Event(ReplyStatus.DROPPED_LATE, 42, names, values)));
        assertThat(decoded).isInstanceOfSatisfying(TaskAnswer.Event.class, e -> {
            assertThat(e.status()).isEqualTo(ReplyStatus.DROPPED_LATE);
            assertThat(e.streamTime()).isEqualTo(42);
            assertThat(e.names()).containsExactly(names);
            assertThat(e.values()).containsExactly(values);
        });
    }

    @Test
    void readsAndErrorsRoundTrip() {
        assertThat(TaskReply.decode(writer.encode(0, new TaskAnswer.Read(true, 9, 1.25))))
                .isEqualTo(new TaskAnswer.Read(true, 9, 1.25));
        assertThat(TaskReply.decode(writer.encode(0, new TaskAnswer.Error(409, "backfilling", "wait"))))
                .isEqualTo(new TaskAnswer.Error(409, "backfilling", "wait"));
    }

    @Test
    void theWriterGrowsForLargeReplies() {
        String big = "v".repeat(10_000);
        TaskAnswer decoded = TaskReply.decode(writer.encode(0, new TaskAnswer.Event(ReplyStatus.COUNTED, 1, new String[] {"m"},
                new Object[] {big})));
        assertThat(((TaskAnswer.Event) decoded).values()[0]).isEqualTo(big);
    }

    @Test
    void thePartSaysWhichOfTheEventsTasksAnswers() {
        byte[] v = writer.encode(300, new TaskAnswer.Error(500, "task_failed", "x"));
        assertThat(TaskReply.part(v)).isEqualTo(300);
        assertThat(TaskReply.part(writer.encode(TaskReply.MAX_PART, new TaskAnswer.Read(false, 0, null))))
                .isEqualTo(TaskReply.MAX_PART);
        assertThatThrownBy(() -> writer.encode(TaskReply.MAX_PART + 1, new TaskAnswer.Read(false, 0, null)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aReplyOfAnotherVersionIsRefusedNotMisread() {
        byte[] v = writer.encode(1, new TaskAnswer.Read(true, 9, 1.25));
        v[0] = TaskReply.READ; // what a reply began with before the format had a version
        assertThatThrownBy(() -> TaskReply.decode(v)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("version 1");
        assertThatThrownBy(() -> TaskReply.part(new byte[0])).isInstanceOf(IllegalArgumentException.class);
    }
}
