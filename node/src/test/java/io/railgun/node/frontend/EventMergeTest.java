package io.railgun.node.frontend;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.reply.StreamReply;
import io.railgun.engine.reply.TaskAnswer;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.task.ReplyStatus;
import io.railgun.node.catalog.Catalog;
import io.railgun.node.catalog.StatementEntry;
import io.railgun.node.catalog.StreamEntry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A task's active copy and its replicas all answer an event: the front-end counts each task (part)
 * once, by its first answer, and drops every later answer without keeping the request.
 */
class EventMergeTest {
    private final ReplyCollector replies = new ReplyCollector(10_000);

    private static StreamEntry payments() {
        Map<String, FieldType> fields = new LinkedHashMap<>();
        fields.put("id", FieldType.STRING);
        fields.put("card", FieldType.STRING);
        fields.put("merchant", FieldType.STRING);
        fields.put("amount", FieldType.DOUBLE);
        StreamDefinition d = new StreamDefinition("payments", Schema.of(fields), "id", null, List.of("card", "merchant"), 2,
                0, LateEventPolicy.DROP);
        return new StreamEntry(d, "g1", 3, List.of(
                new StatementEntry(1, "SELECT COUNT(*) AS n FROM payments GROUP BY card [RANGE 1 HOUR]", List.of("n"), "card", false,
                        List.of()),
                new StatementEntry(2, "SELECT COUNT(*) AS m FROM payments GROUP BY merchant [RANGE 1 HOUR]", List.of("m"), "merchant", false,
                        List.of())));
    }

    private static TaskAnswer.Event answer(String metric, long value) {
        return new TaskAnswer.Event(ReplyStatus.COUNTED, 1, new String[] {metric}, new Object[] {value});
    }

    private EventMerge register() {
        EventMerge merge = new EventMerge(replies, 10_000, new Catalog(), payments(), 2, "e1");
        merge.register();
        return merge;
    }

    @Test
    void twoCopiesOfOneTaskAnsweringCountOnce() throws Exception {
        EventMerge merge = register();
        long id = replies.waitingIds().iterator().next();
        replies.deliver(id, 0, answer("n", 5)); // the card task's active
        replies.deliver(id, 0, answer("n", 5)); // its replica: not the merchant task's answer
        assertThat(merge.future).isNotDone();
        replies.deliver(id, 1, answer("m", 7));
        assertThat(merge.future.get(1, TimeUnit.SECONDS)).isEqualTo(
                new StreamReply("e1", false, false, orderedMap("n", 5L, "m", 7L)));
        assertThat(replies.waiting()).isZero();
        replies.deliver(id, 1, answer("m", 7)); // the merchant task's replica, after completion: dropped
        replies.deliver(id, 0, new TaskAnswer.Error(500, "task_failed", "late and wrong"));
        assertThat(merge.future.get().metrics()).containsExactly(Map.entry("n", 5L), Map.entry("m", 7L));
    }

    @Test
    void answersAfterCompletionReachingTheWaiterDirectlyAreDropped() {
        EventMerge merge = register();
        merge.accept(1, answer("m", 1));
        merge.accept(0, answer("n", 2));
        merge.accept(0, new TaskAnswer.Error(500, "task_failed", "a replica's late error"));
        merge.accept(7, answer("x", 3)); // no such part
        assertThat(merge.future).isCompletedWithValue(new StreamReply("e1", false, false, orderedMap("n", 2L, "m", 1L)));
    }

    @Test
    void aPartsFirstAnswerDecidesEvenWhenItIsAnError() {
        EventMerge merge = register();
        merge.accept(0, new TaskAnswer.Error(400, "invalid_event", "bad"));
        merge.accept(0, answer("n", 1));
        merge.accept(1, answer("m", 1));
        assertThat(merge.future).isCompletedExceptionally();
        assertThat(replies.waiting()).isZero();
    }

    @Test
    void concurrentCopiesCompleteEachEventOnceWithBothParts() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 2_000; round++) {
                EventMerge merge = register();
                CountDownLatch go = new CountDownLatch(1);
                for (int copy = 0; copy < 2; copy++) {
                    for (int part = 0; part < 2; part++) {
                        int p = part;
                        pool.submit(() -> {
                            go.await();
                            merge.accept(p, answer(p == 0 ? "n" : "m", p + 10));
                            return null;
                        });
                    }
                }
                go.countDown();
                assertThat(merge.future.get(5, TimeUnit.SECONDS).metrics())
                        .containsExactly(Map.entry("n", 10L), Map.entry("m", 11L));
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(replies.waiting()).isZero();
    }

    private static Map<String, Object> orderedMap(String k1, Object v1, String k2, Object v2) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(k1, v1);
        m.put(k2, v2);
        return m;
    }
}
