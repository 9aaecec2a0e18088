package io.railgun.node.frontend;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.reply.TaskAnswer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

class RequestDeadlinesTest {
    private final Map<Long, ReplyCollector.Waiter> waiting = new ConcurrentHashMap<>();
    private final RequestDeadlines deadlines = new RequestDeadlines();
    private final List<Long> expired = new ArrayList<>();

    private void register(long correlation, long deadline) {
        ReplyCollector.Waiter w = new ReplyCollector.Waiter() {
            @Override
            public void accept(int part, TaskAnswer answer) {}

            @Override
            public void expire() {
                expired.add(correlation);
            }
        };
        waiting.put(correlation, w);
        deadlines.add(correlation, deadline, w);
    }

    @Test
    void expiresOnlyUnansweredRequestsPastTheirDeadlineInOrder() {
        register(1, 100);
        register(2, 200);
        register(3, 300);
        register(4, 400);
        waiting.remove(2L); // answered
        assertThat(deadlines.expire(99, waiting)).isZero();
        assertThat(deadlines.expire(250, waiting)).isEqualTo(1);
        assertThat(expired).containsExactly(1L);
        assertThat(deadlines.size()).as("1 expired and 2 answered are popped").isEqualTo(2);
        waiting.remove(3L);
        assertThat(deadlines.expire(400, waiting)).isEqualTo(1);
        assertThat(expired).containsExactly(1L, 4L);
        assertThat(waiting).isEmpty();
        assertThat(deadlines.size()).isZero();
    }

    @Test
    void anAnsweredHeadIsPoppedBeforeItsDeadline() {
        register(1, 1_000);
        register(2, 2_000);
        waiting.remove(1L);
        waiting.remove(2L);
        assertThat(deadlines.expire(0, waiting)).isZero();
        assertThat(deadlines.size()).isZero();
    }

    @Test
    void deadlinesCompareAcrossTheNanoTimeWrap() {
        register(1, Long.MAX_VALUE - 10);
        register(2, Long.MAX_VALUE + 100); // wrapped, later
        assertThat(deadlines.expire(Long.MAX_VALUE, waiting)).isEqualTo(1);
        assertThat(deadlines.expire(Long.MAX_VALUE + 50, waiting)).isZero();
        assertThat(deadlines.expire(Long.MAX_VALUE + 100, waiting)).isEqualTo(1);
    }
}
