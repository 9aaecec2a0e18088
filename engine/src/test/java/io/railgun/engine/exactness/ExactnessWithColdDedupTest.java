package io.railgun.engine.exactness;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.oracle.Coverage;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The crash properties of {@link ExactnessWithCrashesTest} with the dedup ids' cold tier always
 * active: a hot dedup horizon of 0 keeps in memory only the ids within the stream's lateness, so
 * every older id within the horizon is spilled to the durable store, deleted from it when it
 * expires, looked up there for every new id, and, after a crash, found there rather than read back
 * from the reservoir. Metric removals and additions move the horizon across the hot one (the tier
 * switched on and off). Every reply must still equal the oracle's.
 */
class ExactnessWithColdDedupTest {
    private static final Coverage COVERAGE = new Coverage();
    private static final ExactnessWithCrashesTest.CrashingHarness HARNESS = new ExactnessWithCrashesTest.CrashingHarness(0);

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.longs();
    }

    @Property(tries = 60)
    void everyReplyWithColdIdsEqualsTheOracle(@ForAll("seeds") long seed) {
        ExactnessCheck.assertExact(seed, ExactnessCheck.Mode.REPLIES, COVERAGE, HARNESS);
    }

    @Property(tries = 20)
    void metricsRemovedWithColdIdsLeaveTheOthersExact(@ForAll("seeds") long seed) {
        ExactnessCheck.assertExact(seed, ExactnessCheck.Mode.REMOVALS, COVERAGE, HARNESS);
    }

    @Property(tries = 3)
    void longStreamsWithColdIdsEqualTheOracle(@ForAll("seeds") long seed) {
        ExactnessCheck.assertExact(seed, ExactnessCheck.Mode.LONG, COVERAGE, HARNESS);
    }

    @AfterContainer
    static void report() {
        System.out.println("[exactness with cold dedup ids and crashes] " + HARNESS.coldDuplicates[0]
                + " duplicates found in the cold tier; " + COVERAGE.report());
        // the properties above would pass vacuously if no duplicate ever reached the cold tier
        assertThat(HARNESS.coldDuplicates[0]).as("duplicates recognised from RocksDB").isPositive();
    }
}
