package io.railgun.engine.exactness;

import io.railgun.engine.oracle.Coverage;
import io.railgun.engine.oracle.StreamCase;
import io.railgun.engine.reservoir.ReservoirFactory;
import io.railgun.engine.reservoir.disk.DiskReservoir;
import io.railgun.engine.reservoir.disk.DiskReservoirOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The foundation's exactness properties, unchanged, with every task's events in a
 * {@link DiskReservoir}: chunks of ~512 bytes (a handful of events), segment files of 8 KiB and a
 * cache of two chunks, so every window longer than a few events reads chunks back from disk
 * through prefetch or stalls, files roll and are deleted by retention. Writes and prefetches run on
 * background threads, as in the node.
 */
class ExactnessOverDiskReservoirTest {
    private static final ExecutorService WRITER = Executors.newSingleThreadExecutor(daemon("test-reservoir-writer"));
    private static final ExecutorService READER = Executors.newSingleThreadExecutor(daemon("test-reservoir-reader"));
    private static final Coverage COVERAGE = new Coverage();
    private static final DiskReservoirOptions OPTIONS = DiskReservoirOptions.defaults()
            .withChunkTargetBytes(512).withSegmentMaxBytes(8 * 1024).withCache(2, 1 << 20);

    private static final LocalStreamHarness DISK = new LocalStreamHarness() {
        private Path root;

        @Override
        protected ReservoirFactory reservoirs(StreamCase c) {
            try {
                root = Files.createTempDirectory("railgun-exactness");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Path caseRoot = root;
            return (stream, partitioner, partition) ->
                    DiskReservoir.open(caseRoot.resolve(partitioner + "-" + partition), OPTIONS, WRITER, READER);
        }

        @Override
        protected void release(StreamCase c) {
            deleteTree(root);
        }
    };

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.longs();
    }

    @Property(tries = 250)
    void everyReplyEqualsTheOracle(@ForAll("seeds") long seed) {
        ExactnessCheck.assertExact(seed, ExactnessCheck.Mode.REPLIES, COVERAGE, DISK);
    }

    @Property(tries = 60)
    void metricsRemovedMidwayLeaveTheOthersExact(@ForAll("seeds") long seed) {
        ExactnessCheck.assertExact(seed, ExactnessCheck.Mode.REMOVALS, COVERAGE, DISK);
    }

    @Property(tries = 60)
    void pointReadsEqualTheOracle(@ForAll("seeds") long seed) {
        ExactnessCheck.assertExact(seed, ExactnessCheck.Mode.READS, COVERAGE, DISK);
    }

    @Property(tries = 6)
    void longStreamsEqualTheOracle(@ForAll("seeds") long seed) {
        ExactnessCheck.assertExact(seed, ExactnessCheck.Mode.LONG, COVERAGE, DISK);
    }

    @AfterContainer
    static void report() {
        System.out.println("[exactness over the on-disk reservoir] " + COVERAGE.report());
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}
