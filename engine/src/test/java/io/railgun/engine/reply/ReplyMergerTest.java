package io.railgun.engine.reply;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.task.ReplyStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplyMergerTest {
    @Test
    void completesOnTheLastAnswerWithTheUnionInCreationOrder() {
        ReplyMerger m = new ReplyMerger(2);
        assertThat(m.add(new TaskAnswer.Event(ReplyStatus.COUNTED, 5, new String[] {"b", "a"}, new Object[] {2L, 1.5})))
                .isFalse();
        assertThat(m.add(new TaskAnswer.Event(ReplyStatus.COUNTED, 7, new String[] {"c"}, new Object[] {null}))).isTrue();
        StreamReply r = m.reply("e1", List.of("a", "b", "c", "backfilling"));
        assertThat(r.eventId()).isEqualTo("e1");
        assertThat(r.duplicate()).isFalse();
        assertThat(r.droppedLate()).isFalse();
        assertThat(r.metrics().keySet()).containsExactly("a", "b", "c");
        assertThat(r.metrics()).containsEntry("a", 1.5).containsEntry("b", 2L).containsEntry("c", null);
    }

    @Test
    void anyDuplicateOrLateAnswerMarksTheReply() {
        ReplyMerger m = new ReplyMerger(3);
        m.add(new TaskAnswer.Event(ReplyStatus.COUNTED, 1, new String[0], new Object[0]));
        m.add(new TaskAnswer.Event(ReplyStatus.DUPLICATE, 1, new String[0], new Object[0]));
        assertThat(m.add(new TaskAnswer.Event(ReplyStatus.DROPPED_LATE, 1, new String[0], new Object[0]))).isTrue();
        StreamReply r = m.reply(null, List.of());
        assertThat(r.duplicate()).isTrue();
        assertThat(r.droppedLate()).isTrue();
    }
}
