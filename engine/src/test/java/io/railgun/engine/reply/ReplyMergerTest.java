package io.railgun.engine.reply;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.task.ReplyStatus;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
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

    @Test
    void aSingleAnswerInCreationOrderIsTheReplyAsItIs() {
        ReplyMerger m = new ReplyMerger(1);
        String[] names = {"a", "b"};
        Object[] values = {1L, "x"};
        m.add(new TaskAnswer.Event(ReplyStatus.COUNTED, 1, names, values));
        StreamReply r = m.reply("e", List.of("a", "backfilling", "b"));
        assertThat(r.metrics()).isInstanceOf(ReplyMetrics.class).containsExactlyEntriesOf(orderedOf("a", 1L, "b", "x"));
        assertThat(r.metrics()).isEqualTo(Map.of("a", 1L, "b", "x")).hasSameHashCodeAs(Map.of("a", 1L, "b", "x"));
    }

    /**
     * Against the merge as a map would do it (values put in answer order, later wins; then the
     * creation order picked out), on random answers: names split over the parts, shared by two
     * parts, missing from the creation order (a metric removed), or in the order but in no answer
     * (backfilling); each answer's names in creation order or shuffled.
     */
    @Test
    void mergesAsAMapWouldOnRandomAnswers() {
        Random random = new Random(7);
        for (int round = 0; round < 20_000; round++) {
            int metrics = random.nextInt(9);
            List<String> order = new ArrayList<>();
            for (int i = 0; i < metrics; i++) {
                order.add("m" + i + "_" + random.nextInt(3));
            }
            List<String> all = new ArrayList<>(order);
            if (random.nextInt(4) == 0) {
                all.add("removed");
            }
            int parts = 1 + random.nextInt(3);
            List<List<String>> answerNames = new ArrayList<>();
            for (int p = 0; p < parts; p++) {
                answerNames.add(new ArrayList<>());
            }
            for (String name : all) {
                int roll = random.nextInt(10);
                if (roll == 0) {
                    continue; // backfilling: in no answer
                }
                answerNames.get(random.nextInt(parts)).add(name);
                if (roll == 1 && parts > 1) {
                    answerNames.get(random.nextInt(parts)).add(name); // shared (maybe twice in one answer's turn: skipped below)
                }
            }
            ReplyMerger merger = new ReplyMerger(parts);
            Map<String, Object> byName = new HashMap<>();
            boolean last = false;
            for (List<String> names : answerNames) {
                List<String> distinct = new ArrayList<>(new java.util.LinkedHashSet<>(names));
                if (random.nextBoolean()) {
                    Collections.shuffle(distinct, random);
                }
                String[] n = distinct.toArray(String[]::new);
                Object[] v = new Object[n.length];
                for (int i = 0; i < n.length; i++) {
                    v[i] = random.nextInt(5) == 0 ? null : (Object) (long) random.nextInt(100);
                    byName.put(n[i], v[i]);
                }
                last = merger.add(new TaskAnswer.Event(ReplyStatus.COUNTED, 1, n, v));
            }
            assertThat(last).isTrue();
            Map<String, Object> expected = new LinkedHashMap<>();
            for (String name : order) {
                if (byName.containsKey(name)) {
                    expected.put(name, byName.get(name));
                }
            }
            Map<String, Object> got = merger.reply("e", order).metrics();
            assertThat(new ArrayList<>(got.keySet())).as("round %d", round).isEqualTo(new ArrayList<>(expected.keySet()));
            assertThat(got).as("round %d", round).isEqualTo(expected);
        }
    }

    private static Map<String, Object> orderedOf(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }
}
