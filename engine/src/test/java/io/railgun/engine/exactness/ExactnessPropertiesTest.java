package io.railgun.engine.exactness;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.oracle.Coverage;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Exactness of LocalStream against the brute-force oracle (SPEC §5), event by event, over random
 * payment streams (see {@code PaymentCaseGenerator}): every reply's duplicate and dropped flags and
 * every metric value, with payment-like numbers and with extreme magnitudes; metrics removed
 * midway; point reads after the stream. Doubles are judged by {@code Tolerance}. A failure shrinks
 * the case and prints a minimal reproduction plus the seed to replay it with
 * {@link ExactnessReplayTest}. The case seeds come from jqwik's random source, so each run covers
 * new cases; the coverage table is printed at the end.
 */
class ExactnessPropertiesTest {
    static final int REPLY_TRIES = 1000;
    static final int EXTREME_TRIES = 300;
    static final int REMOVAL_TRIES = 300;
    static final int READ_TRIES = 300;
    static final int LONG_TRIES = 15;
    static final Coverage COVERAGE = new Coverage();
    private static long startNs;

    @BeforeContainer
    static void start() {
        startNs = System.nanoTime();
    }

    @Property(tries = REPLY_TRIES)
    void everyReplyEqualsTheOracle(@ForAll("seeds") long seed) {
        ExactnessCheck.assertExact(seed, ExactnessCheck.Mode.REPLIES, COVERAGE);
    }

    @Property(tries = EXTREME_TRIES)
    void everyReplyEqualsTheOracleAtExtremeMagnitudes(@ForAll("seeds") long seed) {
        ExactnessCheck.assertExact(seed, ExactnessCheck.Mode.EXTREME, COVERAGE);
    }

    @Property(tries = REMOVAL_TRIES)
    void metricsRemovedMidwayLeaveTheOthersExact(@ForAll("seeds") long seed) {
        ExactnessCheck.assertExact(seed, ExactnessCheck.Mode.REMOVALS, COVERAGE);
    }

    @Property(tries = READ_TRIES)
    void pointReadsEqualTheOracleAtTheTaskStreamTime(@ForAll("seeds") long seed) {
        ExactnessCheck.assertExact(seed, ExactnessCheck.Mode.READS, COVERAGE);
    }

    /** 2,000–4,000 events: windows holding hundreds of events, reservoirs past any small chunk size. */
    @Property(tries = LONG_TRIES)
    void longStreamsStayExact(@ForAll("seeds") long seed) {
        ExactnessCheck.assertExact(seed, ExactnessCheck.Mode.LONG, COVERAGE);
    }

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.randomValue(Random::nextLong);
    }

    @AfterContainer
    static void coverage() {
        System.out.printf("[exactness] %.1f s%n%s", (System.nanoTime() - startNs) / 1e9, COVERAGE.report());
        // Only judge coverage when every property ran to the end (not on a filtered or failed run).
        if (COVERAGE.cases() >= REPLY_TRIES + EXTREME_TRIES + REMOVAL_TRIES + READ_TRIES + LONG_TRIES) {
            assertThat(COVERAGE.gaps()).as("aggregates / window kinds never exercised with non-trivial values").isEmpty();
        }
    }
}
