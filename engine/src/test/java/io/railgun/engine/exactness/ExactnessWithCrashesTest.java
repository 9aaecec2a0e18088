package io.railgun.engine.exactness;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.local.LocalStream;
import io.railgun.engine.reply.StreamReply;
import io.railgun.engine.oracle.Coverage;
import io.railgun.engine.oracle.EngineUnderTest;
import io.railgun.engine.oracle.Rows;
import io.railgun.engine.oracle.StreamCase;
import io.railgun.engine.query.QueryException;
import io.railgun.engine.reservoir.disk.DiskReservoirOptions;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.state.durable.DurableStateOptions;
import io.railgun.engine.task.TaskOptions;
import io.railgun.engine.task.TaskProcessor;
import io.railgun.engine.task.TaskStorage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The foundation's exactness properties with durable tasks that crash: every task keeps its events
 * in a DiskReservoir and its key states in a DurableStateStore whose hot tier holds only
 * {@value #HOT_KEYS} keys (so most keys are evicted to the write buffer and RocksDB, and loaded
 * back), with a 2 KiB write buffer (full after a few evictions, which brings a checkpoint forward)
 * and a checkpoint interval of 1 ms, made due after about one event in {@value #IDLE_EVERY} by
 * calling {@link TaskProcessor#idle()} as a node does between events: checkpoints are frequent, and
 * often still being written when the next event comes. A checkpoint's snapshot saves one key per
 * event, so keys changing or evicted while it is being taken go through copy on write.
 *
 * <p>Before a random event (about one in {@value #CRASH_EVERY}) every task is abandoned without a
 * final checkpoint, as a crash leaves it, restored from its last complete checkpoint, and fed its
 * input again from {@link TaskProcessor#resumeOffset()}, exactly as a node replays a Kafka
 * partition. The runner then compares every later reply and point read with the oracle: no event
 * may be lost or counted twice. Kills by SIGKILL in the middle of a checkpoint are in
 * {@link io.railgun.engine.task.CrashRecoveryTest}.
 */
class ExactnessWithCrashesTest {
    static final int HOT_KEYS = 3;
    static final int CRASH_EVERY = 40;
    static final int IDLE_EVERY = 8;
    private static final Coverage COVERAGE = new Coverage();
    private static final int[] CRASHES = new int[1];

    static final class CrashingHarness extends LocalStreamHarness {
        private final long dedupHotMs;
        final long[] coldDuplicates = new long[1];

        /** @param dedupHotMs the in-memory part of the dedup horizon (0: ids beyond the lateness go to RocksDB) */
        CrashingHarness(long dedupHotMs) {
            this.dedupHotMs = dedupHotMs;
        }

        @Override
        public EngineUnderTest open(StreamCase c, boolean freshRowBuffers) {
            Path root;
            try {
                root = Files.createTempDirectory("railgun-crash");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            TaskOptions options = new TaskOptions(InstantSource.fixed(Instant.ofEpochMilli(c.timeOrigin())), c.minDedupHorizonMs());
            LocalStream.TaskFactory factory = (def, p, i) -> TaskProcessor.open(def, options, storage(root, p, i));
            LocalStream stream = new LocalStream(c.definition(), factory);
            StreamDefinition def = c.definition();
            Schema schema = def.schema();
            Map<String, List<List<EventRow>>> logs = new HashMap<>();
            for (String p : def.partitioners()) {
                List<List<EventRow>> parts = new ArrayList<>();
                for (int i = 0; i < def.partitions(); i++) {
                    parts.add(new ArrayList<>());
                }
                logs.put(p, parts);
            }
            Random random = new Random(c.seed() ^ 0x5eedL);
            return new EngineUnderTest() {
                @Override
                public List<String> addStatement(String sql) throws QueryException {
                    return stream.addStatement(sql);
                }

                @Override
                public boolean removeMetric(String name) {
                    return stream.removeMetric(name);
                }

                @Override
                public StreamReply process(Map<String, Object> event) {
                    if (random.nextInt(CRASH_EVERY) == 0) {
                        crashAndRecover();
                    }
                    EventRow row = Rows.fresh(schema, event);
                    for (String p : def.partitioners()) {
                        int part = LocalStream.partitionOf(row, schema.field(p), def.partitions());
                        logs.get(p).get(part).add(row);
                    }
                    StreamReply reply = stream.process(row);
                    if (random.nextInt(IDLE_EVERY) == 0) {
                        for (String p : def.partitioners()) {
                            for (int i = 0; i < def.partitions(); i++) {
                                stream.task(p, i).idle();
                            }
                        }
                    }
                    return reply;
                }

                private void crashAndRecover() {
                    CRASHES[0]++;
                    for (String p : def.partitioners()) {
                        for (int i = 0; i < def.partitions(); i++) {
                            coldDuplicates[0] += stream.task(p, i).stats().dedupColdDuplicates();
                            stream.task(p, i).abandon();
                            TaskProcessor restored = factory.open(def, p, i);
                            List<EventRow> log = logs.get(p).get(i);
                            for (long o = restored.resumeOffset(); o < log.size(); o++) {
                                restored.process(log.get((int) o), o);
                            }
                            stream.replaceTask(p, i, restored);
                        }
                    }
                }

                @Override
                public Object read(String metric, Map<String, Object> keyRow) {
                    return stream.read(metric, Rows.fresh(schema, keyRow));
                }

                @Override
                public void close() {
                    stream.close();
                    deleteTree(root);
                }
            };
        }

        private TaskStorage storage(Path root, String partitioner, int partition) {
            return TaskStorage.in(root.resolve(partitioner + "-" + partition))
                    .withReservoir(DiskReservoirOptions.defaults().withChunkTargetBytes(512).withSegmentMaxBytes(8 * 1024)
                            .withCache(2, 1 << 20))
                    .withState(DurableStateOptions.defaults().withHotKeys(HOT_KEYS).withWriteBufferBytes(2048)
                            .withSnapshotKeysPerEvent(1).withDedupHotMs(dedupHotMs))
                    .withCheckpointIntervalMs(1);
        }
    }

    private static final CrashingHarness HARNESS = new CrashingHarness(DurableStateOptions.DEFAULT_DEDUP_HOT_MS);

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.longs();
    }

    @Property(tries = 60)
    void everyReplyAfterACrashEqualsTheOracle(@ForAll("seeds") long seed) {
        ExactnessCheck.assertExact(seed, ExactnessCheck.Mode.REPLIES, COVERAGE, HARNESS);
    }

    @Property(tries = 20)
    void metricsRemovedAcrossCrashesLeaveTheOthersExact(@ForAll("seeds") long seed) {
        ExactnessCheck.assertExact(seed, ExactnessCheck.Mode.REMOVALS, COVERAGE, HARNESS);
    }

    @Property(tries = 20)
    void pointReadsAfterCrashesEqualTheOracle(@ForAll("seeds") long seed) {
        ExactnessCheck.assertExact(seed, ExactnessCheck.Mode.READS, COVERAGE, HARNESS);
    }

    @Property(tries = 3)
    void longStreamsWithCrashesEqualTheOracle(@ForAll("seeds") long seed) {
        ExactnessCheck.assertExact(seed, ExactnessCheck.Mode.LONG, COVERAGE, HARNESS);
    }

    @AfterContainer
    static void report() {
        System.out.println("[exactness with durable state and crashes] " + CRASHES[0] + " crashes; " + COVERAGE.report());
    }
}
