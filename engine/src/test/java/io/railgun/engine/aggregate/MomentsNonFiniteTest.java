package io.railgun.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.plan.StatementBinder;
import io.railgun.engine.query.QueryParser;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.task.Reply;
import io.railgun.engine.task.TaskOptions;
import io.railgun.engine.task.TaskProcessor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * NaN and the infinities, which the node's API refuses but a row written through the engine's
 * API may hold, are ignored by the moments like NULL, arriving and leaving: the key's sums stay
 * exact and nothing throws half-way through an update.
 */
class MomentsNonFiniteTest {
    @Test
    void nonFiniteValuesAreIgnoredLikeNull() throws Exception {
        Map<String, FieldType> f = new LinkedHashMap<>();
        f.put("id", FieldType.LONG);
        f.put("ts", FieldType.TIMESTAMP);
        f.put("card", FieldType.STRING);
        f.put("amount", FieldType.DOUBLE);
        Schema schema = Schema.of(f);
        StreamDefinition stream = new StreamDefinition("payments", schema, "id", "ts", List.of("card"), 1, 0,
                LateEventPolicy.DROP);
        try (TaskProcessor task = new TaskProcessor(stream, TaskOptions.defaults())) {
            task.addMetrics(StatementBinder.bind(stream, QueryParser.parse("SELECT SUM(amount) AS s, COUNT(amount) AS n,"
                    + " VAR_POP(amount) AS v FROM payments GROUP BY card [RANGE 10 MILLISECONDS]"), Set.of()));
            EventRowWriter w = new EventRowWriter();
            double[] amounts = {1.5, Double.NaN, Double.POSITIVE_INFINITY, 2.5, Double.NEGATIVE_INFINITY, 1e-300};
            Reply last = null;
            for (int i = 0; i < amounts.length; i++) {
                w.begin(schema).setLong(0, i).setLong(1, 1_000 + i).setString(2, "c").setDouble(3, amounts[i]);
                w.finish();
                last = task.process(w.row(), i);
            }
            assertThat(last.doubleValue(0)).isEqualTo(1.5 + 2.5 + 1e-300);
            assertThat(last.doubleValue(2)).isGreaterThan(0.0);
            // every one of them leaves the 10 ms window
            w.begin(schema).setLong(0, 99).setLong(1, 2_000).setString(2, "c").setDouble(3, 4.0);
            w.finish();
            Reply after = task.process(w.row(), 99);
            assertThat(after.doubleValue(0)).isEqualTo(4.0);
            assertThat(after.doubleValue(2)).isEqualTo(0.0);
        }
    }
}
