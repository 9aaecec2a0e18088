package io.railgun.engine.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.event.EventTime;
import io.railgun.engine.query.QueryException;
import io.railgun.engine.reply.StreamReply;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.task.TaskOptions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The accepted range of event times ({@link EventTime}): an event outside it is refused by the
 * engine's entry points before any task counts it (its id is not remembered, no window sees it,
 * stream time does not move), and events at both ends of the range are counted exactly, also by
 * windows longer than the range and by {@code RANGE UNBOUNDED}.
 */
class EventTimeRangeTest {
    private final EventRowWriter w = new EventRowWriter();
    private Schema schema;

    private LocalStream stream() throws QueryException {
        Map<String, FieldType> f = new LinkedHashMap<>();
        f.put("id", FieldType.STRING);
        f.put("ts", FieldType.TIMESTAMP);
        f.put("card", FieldType.STRING);
        f.put("merchant", FieldType.STRING);
        schema = Schema.of(f);
        // two partitioners: a refusal must come before either task counts the event
        StreamDefinition def = new StreamDefinition("p", schema, "id", "ts", List.of("card", "merchant"), 2, 0,
                LateEventPolicy.DROP);
        LocalStream s = new LocalStream(def, TaskOptions.defaults());
        s.addStatement("SELECT COUNT(*) AS all_n FROM p GROUP BY card [RANGE UNBOUNDED]");
        s.addStatement("SELECT COUNT(*) AS years_n FROM p GROUP BY card [RANGE 20000000 WEEKS]");
        s.addStatement("SELECT COUNT(*) AS m_n FROM p GROUP BY merchant [RANGE 1 MINUTE]");
        s.addStatement("SELECT COUNT(*) AS t_n FROM p GROUP BY merchant [TUMBLING 15250 WEEKS]");
        return s;
    }

    private StreamReply send(LocalStream s, String id, long ts) {
        w.begin(schema).setString(0, id).setLong(1, ts).setString(2, "c").setString(3, "m");
        w.finish();
        return s.process(w.row());
    }

    @Test
    void timestampsOutsideTheRangeAreRefusedBeforeTheyAreCounted() throws QueryException {
        try (LocalStream s = stream()) {
            for (long bad : new long[] {Long.MIN_VALUE, Long.MAX_VALUE, EventTime.MIN_MS - 1, EventTime.MAX_MS + 1}) {
                assertThatThrownBy(() -> send(s, "x", bad)).isInstanceOf(EventTime.TimestampOutOfRangeException.class)
                        .hasMessageContaining("0001-01-01T00:00:00Z").hasMessageContaining("9999-12-31T23:59:59.999Z")
                        .hasMessageContaining(Long.toString(bad));
            }
            assertThat(s.task("card", 0).hasStreamTime()).isFalse();
            assertThat(s.task("card", 1).hasStreamTime()).isFalse();
            // the id "x" was not remembered: counted now, by every window
            StreamReply r = send(s, "x", EventTime.MIN_MS);
            assertThat(r.duplicate()).isFalse();
            assertThat(r.metrics()).containsEntry("all_n", 1L).containsEntry("years_n", 1L).containsEntry("m_n", 1L)
                    .containsEntry("t_n", 1L);
        }
    }

    @Test
    void bothEndsOfTheRangeAreCountedExactly() throws QueryException {
        try (LocalStream s = stream()) {
            assertThat(send(s, "a", EventTime.MIN_MS).metrics()).containsEntry("all_n", 1L).containsEntry("years_n", 1L);
            assertThat(send(s, "b", EventTime.MIN_MS + 1).metrics()).containsEntry("all_n", 2L).containsEntry("m_n", 2L);
            // about 10,000 years later: inside 20,000,000 weeks (383,000 years), far outside a minute
            StreamReply r = send(s, "c", EventTime.MAX_MS);
            assertThat(r.metrics()).containsEntry("all_n", 3L).containsEntry("years_n", 3L).containsEntry("m_n", 1L);
            // 15,250 weeks is about 292 years: a tumbling window of its own at the end of the range
            assertThat(r.metrics()).containsEntry("t_n", 1L);
            assertThat(send(s, "d", EventTime.MAX_MS).metrics()).containsEntry("all_n", 4L).containsEntry("m_n", 2L)
                    .containsEntry("t_n", 2L);
            assertThat(send(s, "c", EventTime.MAX_MS).duplicate()).isTrue();
            assertThatThrownBy(() -> send(s, "e", EventTime.MAX_MS + 1))
                    .isInstanceOf(EventTime.TimestampOutOfRangeException.class);
            assertThat(send(s, "e", EventTime.MAX_MS).metrics()).containsEntry("all_n", 5L);
        }
    }
}
