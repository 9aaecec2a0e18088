package io.railgun.engine.exactness;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.event.EventTime;
import io.railgun.engine.local.LocalStream;
import io.railgun.engine.reply.StreamReply;
import io.railgun.engine.oracle.ExpectedValue;
import io.railgun.engine.oracle.MetricQuery;
import io.railgun.engine.oracle.OracleReply;
import io.railgun.engine.oracle.OracleStream;
import io.railgun.engine.oracle.PaymentCaseGenerator;
import io.railgun.engine.oracle.Rows;
import io.railgun.engine.oracle.StreamCase;
import io.railgun.engine.oracle.Tolerance;
import io.railgun.engine.reservoir.ReservoirFactory;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.task.TaskOptions;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * Metric backfill against the oracle: a random stream runs with half of its statements; after a
 * random number N of events (in one case out of five none, as when a node adds a new stream's
 * metrics) the other half is added with backfill, which the oracle computes over every event
 * already counted. Between two additions the tasks may take one backfill step or finish their
 * backfills, as a node's idle tasks do. From then on every reply is compared: the other metrics must stay
 * exact while the backfill runs, and each backfilled metric must be exact in every reply it
 * appears in — from its first one — and must appear before the stream ends. The stream keeps
 * the whole range of event times as history (retention), so the reservoir holds all the history the oracle sees.
 */
class BackfillTest {
    // the generated streams span up to the whole accepted range of event times (windows of years): keep all of it
    private static final long RETENTION_MS = EventTime.MAX_MS - EventTime.MIN_MS + 1;

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.longs();
    }

    @Property(tries = 120)
    void backfilledMetricsEqualTheOracleFromTheirFirstReply(@ForAll("seeds") long seed) throws Exception {
        StreamCase c = PaymentCaseGenerator.generate(seed, PaymentCaseGenerator.Settings.defaults());
        StreamDefinition d = c.definition();
        StreamDefinition def = new StreamDefinition(d.name(), d.schema(), d.eventIdField(), d.timestampField(), d.partitioners(),
                d.partitions(), d.latenessMs(), d.lateEvents(), RETENTION_MS);
        EventRowWriter writer = new EventRowWriter();
        OracleStream oracle = new OracleStream(def, c.minDedupHorizonMs(), (event, partitioner, partitions) ->
                LocalStream.partitionOf(Rows.write(writer, def.schema(), event), def.schema().field(partitioner), partitions));
        TaskOptions options = new TaskOptions(InstantSource.fixed(Instant.ofEpochMilli(c.timeOrigin())), c.minDedupHorizonMs());
        try (LocalStream engine = new LocalStream(def, options, ReservoirFactory.IN_MEMORY)) {
            List<MetricQuery> statements = c.statements();
            int live = Math.max(1, statements.size() / 2);
            for (MetricQuery q : statements.subList(0, live)) {
                assertThat(engine.addStatement(q.sql(def.name()))).isEqualTo(oracle.addStatement(q, false));
            }
            int n = c.events().size();
            Random random = new Random(seed);
            // sometimes before the first event (a node adds a new stream's metrics with backfill)
            int addAt = random.nextInt(5) == 0 ? 0 : n / 4 + random.nextInt(Math.max(1, n / 2));
            Set<String> backfilled = new HashSet<>();
            Set<String> seen = new HashSet<>();
            long compared = 0;
            for (int i = 0; i < n; i++) {
                if (i == addAt) {
                    for (MetricQuery q : statements.subList(live, statements.size())) {
                        List<String> names = engine.addStatement(q.sql(def.name()), true);
                        assertThat(names).isEqualTo(oracle.addStatement(q, true));
                        backfilled.addAll(names);
                        // a node steps backfills whenever a task is idle: maybe between two additions
                        switch (random.nextInt(3)) {
                            case 0 -> stepEveryTask(engine, def, false);
                            case 1 -> stepEveryTask(engine, def, true);
                            default -> { }
                        }
                    }
                }
                if (i == n - 3) {
                    // whatever is left of the backfill runs now (a node does this when the task is idle)
                    stepEveryTask(engine, def, true);
                }
                Map<String, Object> event = c.events().get(i);
                OracleReply expected = oracle.process(event);
                StreamReply actual = engine.process(Rows.write(writer, def.schema(), event));
                assertThat(actual.duplicate()).as("seed %d event #%d duplicate", seed, i).isEqualTo(expected.duplicate());
                assertThat(actual.droppedLate()).as("seed %d event #%d dropped late", seed, i).isEqualTo(expected.droppedLate());
                for (Map.Entry<String, ExpectedValue> e : expected.metrics().entrySet()) {
                    String name = e.getKey();
                    if (!actual.metrics().containsKey(name)) {
                        assertThat(backfilled).as("event #%d: only metrics being backfilled may be missing, not %s", i, name)
                                .contains(name);
                        continue;
                    }
                    String why = Tolerance.check(e.getValue(), actual.metrics().get(name));
                    assertThat(why).as("seed %d event #%d metric %s (backfilled: %s, added before event #%d) in %s", seed, i, name,
                            backfilled.contains(name), addAt, oracle.queryOf(name).sql(def.name())).isNull();
                    if (backfilled.contains(name)) {
                        seen.add(name);
                        compared++;
                    }
                }
            }
            if (addAt < n - 3) {
                assertThat(seen).as("every backfilled metric joined the replies").isEqualTo(backfilled);
            }
            COMPARED[0] += compared;
        }
    }

    /** One backfill step on every task, or steps until every backfill is done. */
    private static void stepEveryTask(LocalStream engine, StreamDefinition def, boolean untilDone) {
        for (String p : def.partitioners()) {
            for (int k = 0; k < def.partitions(); k++) {
                while (engine.task(p, k).stepBackfill() && untilDone) {
                    // steps until done
                }
            }
        }
    }

    private static final long[] COMPARED = new long[1];

    @AfterContainer
    static void report() {
        System.out.println("[backfill] " + COMPARED[0] + " values of backfilled metrics compared with the oracle");
    }
}
