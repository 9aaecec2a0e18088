package io.railgun.node.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.client.RailgunClient;
import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.local.LocalStream;
import io.railgun.engine.reply.StreamReply;
import io.railgun.engine.oracle.CaseDump;
import io.railgun.engine.oracle.CaseMinimizer;
import io.railgun.engine.oracle.Coverage;
import io.railgun.engine.oracle.EngineUnderTest;
import io.railgun.engine.oracle.ExactnessRunner;
import io.railgun.engine.oracle.MetricQuery;
import io.railgun.engine.oracle.OracleStream;
import io.railgun.engine.oracle.PaymentCaseGenerator;
import io.railgun.engine.oracle.Rows;
import io.railgun.engine.oracle.StreamCase;
import io.railgun.engine.query.QueryException;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.task.TaskOptions;
import io.railgun.node.Node;
import io.railgun.node.NodeConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The foundation's exactness property (SPEC §5) end to end: random payment streams and statements
 * from {@link PaymentCaseGenerator}, run through the HTTP API of a real node (embedded Kafka broker,
 * two processor units) with the Java client, every reply compared with the brute-force oracle —
 * event id, duplicate and dropped flags, the metric set in order and every value — and every point
 * read after the stream. One node serves the whole class; each case gets a fresh stream, deleted
 * when it ends.
 *
 * <p>How the generated cases are adapted to one node:
 * <ul>
 *   <li>Most cases use both partitioners ({@code card} and {@code merchant}, in a random order) and
 *       2–4 partitions, so replies merge the tasks of two topics and keys spread over partitions;
 *       the others keep the generator's choice (one partitioner, 1–3 partitions).
 *   <li>Every case has metrics removed midway and point reads at the end. Reads of a NULL key
 *       are left out: the client cannot name one ({@code RailgunClient.read} refuses null values).
 *   <li>The node has one minimum dedup horizon for all streams, {@value #MIN_DEDUP_HORIZON_MS} ms,
 *       and every case is run with it: a task's horizon is then the largest of its lateness and
 *       its windows' extents, which changes as metrics are removed.
 *   <li>Every case has an event-time field ({@code ts}, of type timestamp or long): a stream without
 *       one uses the node's ingestion time, which the oracle cannot know.
 * </ul>
 *
 * <p>Events are sent one request each; every {@value #BATCH_EVERY}th case sends them through
 * {@code events:batch} instead (up to {@value #BATCH_SIZE} per request, never across a metric
 * removal), its replies, in order, each checked on its own. On a mismatch the test prints the case
 * and the runner's first mismatch with the oracle's window, shrinks the case (each attempt a new
 * stream on the same node) and says whether the shrunk case also fails on the in-process
 * {@link LocalStream} (an engine bug) or only through the node. Replay one case with
 * {@code -Drailgun.e2e.seed=N} (plus {@code -Drailgun.e2e.batch=true} for a batched one), as the
 * failure message prints it, or with the cases run before it on the same node (a failure can depend
 * on them: timing, rebalances) with {@code -Drailgun.e2e.seeds=A,B,...};
 * {@code -Drailgun.e2e.cases=N} changes the number of cases.
 */
@Tag("kafka")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class HttpExactnessTest {
    static final long MIN_DEDUP_HORIZON_MS = 0;
    static final int CASES = 24;
    static final int MIN_EVENTS = 60;
    static final int MAX_EVENTS = 400;
    static final int READS_PER_METRIC = 2;
    /** Every BATCH_EVERY-th case sends its events through events:batch, up to BATCH_SIZE per request. */
    static final int BATCH_EVERY = 4;
    static final int BATCH_SIZE = 64;
    /** Share of cases forced to two partitioners and several partitions. */
    static final double SPREAD_CASES = 0.85;
    static final int SHRINK_RUNS = 120;
    static final long SHRINK_BUDGET_MS = 240_000;

    @TempDir
    static Path dataDir;
    private static Node node;
    private static RailgunClient client;

    @BeforeAll
    static void startNode() {
        long start = System.nanoTime();
        // checkpoints every second and a hot tier of 8 keys: tasks checkpoint and spill keys to disk mid-case
        NodeConfig config = NodeConfig.defaults().withDataDir(dataDir).withHttp("127.0.0.1", 0).withProcessors(2)
                .withEngine(1_000, 8, MIN_DEDUP_HORIZON_MS);
        node = Node.start(config);
        client = RailgunClient.builder().baseUri(node.uri()).requestTimeout(Duration.ofSeconds(30)).build();
        System.out.printf("[http-exactness] node at %s started in %.1f s%n", node.uri(), (System.nanoTime() - start) / 1e9);
    }

    @AfterAll
    static void stopNode() {
        if (client != null) {
            client.close();
        }
        if (node != null) {
            node.close();
        }
    }

    @Test
    void everyReplyAndPointReadThroughHttpEqualsTheOracle() {
        Long replay = Long.getLong("railgun.e2e.seed");
        long[] listed = seedList();
        int cases = replay != null ? 1 : listed != null ? listed.length : Integer.getInteger("railgun.e2e.cases", CASES);
        Random seeds = new Random(); // a new set of cases each run; each case's seed is printed
        HttpStreamHarness single = new HttpStreamHarness(client, "exact_", 1);
        HttpStreamHarness batches = new HttpStreamHarness(client, "exact_b_", BATCH_SIZE);
        Coverage coverage = new Coverage();
        int skippedReads = 0;
        StringJoiner seedsRun = new StringJoiner(",");
        long start = System.nanoTime();
        for (int i = 0; i < cases; i++) {
            long seed = replay != null ? replay : listed != null ? listed[i] : seeds.nextLong();
            seedsRun.add(Long.toString(seed));
            StreamCase generated = forNode(seed);
            StreamCase c = withoutNullKeyReads(generated);
            skippedReads += generated.reads().size() - c.reads().size();
            boolean batched = replay != null ? Boolean.getBoolean("railgun.e2e.batch") : i % BATCH_EVERY == BATCH_EVERY - 1;
            HttpStreamHarness harness = batched ? batches : single;
            long caseStart = System.nanoTime();
            ExactnessRunner.Result r = new ExactnessRunner(harness, coverage).run(c);
            System.out.printf("[http-exactness] case %d/%d seed %d: %d events (%s), %d metrics, %d removals, %d reads;"
                            + " partitioners=%s partitions=%d minDedup=%dms; generator's choice: %s -> %s in %.1f s%n",
                    i + 1, cases, seed, c.events().size(), harness.batchSize() == 1 ? "one by one" : "in batches",
                    c.metricCount(), c.removals().size(), c.reads().size(),
                    c.definition().partitioners(), c.definition().partitions(), c.minDedupHorizonMs(), c.profile(),
                    r.exact() ? "exact" : "MISMATCH", (System.nanoTime() - caseStart) / 1e9);
            if (!r.exact()) {
                throw new AssertionError(report(c, r, harness, seedsRun.toString()));
            }
        }
        System.out.printf("[http-exactness] %d cases in %.1f s (point reads of a NULL key left out: %d)%n%s", coverage.cases(),
                (System.nanoTime() - start) / 1e9, skippedReads, coverage.report());
        assertThat(coverage.cases()).isEqualTo(cases);
    }

    /** {@code -Drailgun.e2e.seeds=A,B,...}: these cases in this order on one node (a failure may depend on the cases before it). */
    private static long[] seedList() {
        String list = System.getProperty("railgun.e2e.seeds");
        if (list == null || list.isBlank()) {
            return null;
        }
        return java.util.Arrays.stream(list.split(",")).map(String::trim).mapToLong(Long::parseLong).toArray();
    }

    /**
     * The generator's case for {@code seed}, adapted to the node: usually both partitioners and
     * 2–4 partitions, the node's dedup horizon, removals and reads. Same seed, same case.
     */
    static StreamCase forNode(long seed) {
        PaymentCaseGenerator.Settings settings = PaymentCaseGenerator.Settings.defaults().withEvents(MIN_EVENTS, MAX_EVENTS)
                .withRemovals(true).withReads(READS_PER_METRIC);
        StreamCase c = PaymentCaseGenerator.generate(seed, settings).withMinDedupHorizonMs(MIN_DEDUP_HORIZON_MS);
        Random random = new Random(seed ^ 0x5DEECE66DL);
        StreamDefinition d = c.definition();
        if (random.nextDouble() < SPREAD_CASES) {
            List<String> partitioners = new ArrayList<>(d.partitioners());
            for (String p : List.of("card", "merchant")) {
                if (!partitioners.contains(p)) {
                    partitioners.add(random.nextBoolean() ? 0 : partitioners.size(), p);
                }
            }
            d = new StreamDefinition(d.name(), d.schema(), d.eventIdField(), d.timestampField(), partitioners,
                    2 + random.nextInt(3), d.latenessMs(), d.lateEvents(), d.retentionMs());
        }
        return c.withDefinition(d);
    }

    /** Drops the point reads whose key has a NULL GROUP BY value: the client cannot send one. */
    static StreamCase withoutNullKeyReads(StreamCase c) {
        Map<String, List<String>> groupBy = new HashMap<>();
        for (MetricQuery q : c.statements()) {
            q.aggregates().forEach(a -> groupBy.put(a.alias(), q.groupBy()));
        }
        List<StreamCase.Read> reads = c.reads().stream()
                .filter(r -> groupBy.get(r.metric()).stream().allMatch(f -> r.keyRow().get(f) != null))
                .toList();
        return c.withReads(reads);
    }

    private static String report(StreamCase c, ExactnessRunner.Result r, HttpStreamHarness harness, String seedsRun) {
        StringBuilder sb = new StringBuilder();
        sb.append("The node (through HTTP) disagrees with the oracle.\n");
        sb.append("case ").append(c).append("\n  first mismatch: ").append(r.first()).append('\n');
        sb.append("  events sent ").append(harness.batchSize() == 1 ? "one by one" : "in batches of up to " + harness.batchSize())
                .append("; replay: -Drailgun.e2e.seed=").append(c.seed())
                .append(harness.batchSize() == 1 ? "" : " -Drailgun.e2e.batch=true").append(" (HttpExactnessTest)\n")
                .append("  with the cases run before it on this node: -Drailgun.e2e.seeds=").append(seedsRun).append('\n');
        sb.append(r.firstMismatchContext()).append('\n');
        // printed before shrinking, which may take minutes
        System.out.println(sb);
        System.out.println(CaseDump.describe(c));
        ExactnessRunner quiet = new ExactnessRunner(harness, null);
        CaseMinimizer.Minimized min = new CaseMinimizer(quiet, SHRINK_RUNS, SHRINK_BUDGET_MS).minimize(c, r);
        ExactnessRunner.Result local = new ExactnessRunner(new InProcessHarness(), null).run(min.minimal());
        sb.append("\n===== shrunk reproduction (").append(min.runs()).append(" runs over HTTP) =====\n");
        sb.append(CaseDump.describe(min.minimal()));
        sb.append("first mismatch: ").append(min.result().first()).append('\n');
        for (int i = 1; i < Math.min(6, min.result().mismatches().size()); i++) {
            sb.append("also:           ").append(min.result().mismatches().get(i)).append('\n');
        }
        sb.append(min.result().firstMismatchContext());
        sb.append("in-process LocalStream on the shrunk case: ")
                .append(local.exact() ? "exact (the bug is in the node: messaging, front-end, HTTP or client)"
                        : "also fails (" + local.first() + "): an engine bug")
                .append('\n');
        return sb.toString();
    }

    /**
     * The same case on the in-process {@link LocalStream} with in-memory reservoirs, to tell an
     * engine bug from a node bug. Its routing is the engine's own, which the node's must equal.
     */
    private static final class InProcessHarness implements EngineUnderTest.Harness {
        @Override
        public EngineUnderTest open(StreamCase c, boolean freshRowBuffers) {
            TaskOptions options = new TaskOptions(InstantSource.fixed(Instant.ofEpochMilli(c.timeOrigin())), c.minDedupHorizonMs());
            LocalStream stream = new LocalStream(c.definition(), options);
            EventRowWriter writer = new EventRowWriter();
            return new EngineUnderTest() {
                @Override
                public List<String> addStatement(String sql) throws QueryException {
                    // as the node's harness adds them: with backfill, which an idle task completes
                    List<String> names = stream.addStatement(sql, true);
                    for (String p : c.definition().partitioners()) {
                        for (int k = 0; k < c.definition().partitions(); k++) {
                            while (stream.task(p, k).stepBackfill()) {
                                // steps until done
                            }
                        }
                    }
                    return names;
                }

                @Override
                public boolean removeMetric(String name) {
                    return stream.removeMetric(name);
                }

                @Override
                public StreamReply process(Map<String, Object> event) {
                    return stream.process(Rows.write(writer, c.definition().schema(), event));
                }

                @Override
                public Object read(String metric, Map<String, Object> keyRow) {
                    return stream.read(metric, Rows.write(writer, c.definition().schema(), keyRow));
                }

                @Override
                public void close() {
                    stream.close();
                }
            };
        }

        @Override
        public OracleStream.Router router(StreamCase c) {
            return HttpStreamHarness::kafkaPartition;
        }
    }
}
