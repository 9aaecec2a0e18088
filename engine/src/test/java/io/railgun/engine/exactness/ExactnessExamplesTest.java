package io.railgun.engine.exactness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railgun.engine.query.QueryException;
import io.railgun.engine.schema.LateEventPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Named cases of SPEC §5 with values worked out by hand; each is checked against both the oracle
 * and LocalStream. Times are ms after {@link ExampleStream#T0}.
 */
class ExactnessExamplesTest {
    private static final long S = 1000;
    private static final long MIN = 60 * S;

    @Test
    void figure1FiveMinuteWindowSeesAllFivePaymentsThenExpiresTheFirst() throws QueryException {
        try (ExampleStream s = ExampleStream.byCard(0, LateEventPolicy.DROP)) {
            s.add("SELECT COUNT(*) AS n FROM payments GROUP BY card [RANGE 5 MINUTES]");
            long[] at = {0, 72 * S, 150 * S, 222 * S, 294 * S}; // minutes 0, 1.2, 2.5, 3.7, 4.9
            for (int i = 0; i < at.length; i++) {
                s.send(at[i], "card", "c1").counted().expect("n", (long) i + 1);
            }
            // hopping windows with a 1-minute hop would never count all five; here 5 MINUTES after
            // the first payment it has left the window
            s.send(5 * MIN + 100, "card", "c1").expect("n", 5L);
            assertThat(s.read("n", "card", "c1")).isEqualTo(5L);
            assertThat(s.read("n", "card", "c9")).isEqualTo(0L);
        }
    }

    @Test
    void slidingWindowExcludesAnEventExactlyWBeforeStreamTime() throws QueryException {
        try (ExampleStream s = ExampleStream.byCard(0, LateEventPolicy.DROP)) {
            s.add("SELECT COUNT(*) AS n FROM payments GROUP BY card [RANGE 10 SECONDS]");
            s.send(0, "card", "c1").expect("n", 1L);
            s.send(5 * S, "card", "c2").expect("n", 1L);
            s.send(10 * S, "card", "c1").expect("n", 1L); // the one at 0 is at T - W: out
            s.send(15 * S - 1, "card", "c2").expect("n", 2L); // the one at 5 s is at T - W + 1: in
        }
    }

    @Test
    void tumblingWindowStartsAfreshAtEachEpochAlignedBoundary() throws QueryException {
        long hour = 60 * MIN;
        long boundary = Math.floorDiv(ExampleStream.T0, hour) * hour + hour - ExampleStream.T0; // next hour, as offset
        try (ExampleStream s = ExampleStream.byCard(0, LateEventPolicy.DROP)) {
            s.add("SELECT COUNT(*) AS n, SUM(amount) AS total FROM payments GROUP BY card [TUMBLING 1 HOUR]");
            s.send(boundary - 1, "card", "c1", "amount", 1.0).expect("n", 1L).expect("total", 1.0);
            s.send(boundary, "card", "c1", "amount", 2.0).expect("n", 1L).expect("total", 2.0);
            s.send(boundary + hour - 1, "card", "c1", "amount", 4.0).expect("n", 2L).expect("total", 6.0);
            s.send(boundary + hour, "card", "c1", "amount", 8.0).expect("n", 1L).expect("total", 8.0);
        }
    }

    @Test
    void tumblingBucketsAreFloorAlignedAcrossTheEpoch() throws QueryException {
        long epoch = -ExampleStream.T0; // as an offset from T0
        try (ExampleStream s = ExampleStream.byCard(0, LateEventPolicy.DROP)) {
            s.add("SELECT COUNT(*) AS n FROM payments GROUP BY card [TUMBLING 10 MILLISECONDS]");
            s.send(epoch - 15, "card", "c1").expect("n", 1L); // bucket [-20, -10)
            s.send(epoch - 5, "card", "c1").expect("n", 1L); // bucket [-10, 0)
            s.send(epoch - 1, "card", "c1").expect("n", 2L);
            s.send(epoch + 3, "card", "c1").expect("n", 1L); // bucket [0, 10): truncating division would say 3
        }
    }

    @Test
    void delayedWindowEndsDelayBeforeStreamTime() throws QueryException {
        try (ExampleStream s = ExampleStream.byCard(0, LateEventPolicy.DROP)) {
            s.add("SELECT SUM(amount) AS total, COUNT(*) AS n FROM payments GROUP BY card [RANGE 10 SECONDS DELAY 5 SECONDS]");
            s.send(0, "card", "c1", "amount", 1.0).expect("total", null).expect("n", 0L);
            s.send(3 * S, "card", "c1", "amount", 2.0).expect("total", null).expect("n", 0L);
            s.send(6 * S, "card", "c1", "amount", 4.0).expect("total", 1.0).expect("n", 1L); // (-9 s, 1 s]
            s.send(12 * S, "card", "c1", "amount", 8.0).expect("total", 7.0).expect("n", 3L); // (-3 s, 7 s]
            s.send(16 * S, "card", "c1", "amount", 16.0).expect("total", 6.0).expect("n", 2L); // (1 s, 11 s]
        }
    }

    @Test
    void lateEventWithinLatenessIsInsertedAtItsOwnTimestampAndBeyondItDropped() throws QueryException {
        try (ExampleStream s = ExampleStream.byCard(10 * S, LateEventPolicy.DROP)) {
            s.add("SELECT COUNT(*) AS n, LAST(amount) AS last, SUM(amount) AS total FROM payments GROUP BY card [RANGE 1 MINUTE]");
            s.send(100 * S, "card", "c1", "amount", 1.0).counted().expect("n", 1L).expect("last", 1.0);
            s.send(120 * S, "card", "c1", "amount", 2.0).counted().expect("n", 2L).expect("last", 2.0);
            s.send(111 * S, "card", "c1", "amount", 3.0).counted().expect("n", 3L).expect("last", 2.0).expect("total", 6.0);
            s.send(110 * S, "card", "c1", "amount", 4.0).counted().expect("n", 4L).expect("total", 10.0); // exactly lateness behind
            s.send(110 * S - 1, "card", "c1", "amount", 5.0).expectFlags(false, true).expect("n", 4L).expect("total", 10.0);
            // (110.5 s, 170.5 s]: the late event at 111 s is still in, at its own timestamp; the one at 110 s is out
            s.send(170 * S + 500, "card", "c1", "amount", 6.0).counted().expect("n", 3L).expect("total", 11.0);
        }
    }

    @Test
    void eventBeyondLatenessIsRewrittenToStreamTimeMinusLateness() throws QueryException {
        try (ExampleStream s = ExampleStream.byCard(10 * S, LateEventPolicy.REWRITE)) {
            s.add("SELECT COUNT(*) AS n, SUM(amount) AS total, LAST(amount) AS last FROM payments GROUP BY card [RANGE 1 MINUTE]");
            s.send(100 * S, "card", "c1", "amount", 1.0).expect("n", 1L);
            s.send(120 * S, "card", "c1", "amount", 2.0).expect("n", 2L);
            // 50 s is 70 s behind: counted at 120 s - 10 s = 110 s, inside (60 s, 120 s]
            s.send(50 * S, "card", "c1", "amount", 4.0).counted().expect("n", 3L).expect("total", 7.0).expect("last", 2.0);
            s.send(170 * S - 1, "card", "c1", "amount", 8.0).expect("n", 3L).expect("total", 14.0); // (109.999 s, 169.999 s]
            s.send(170 * S, "card", "c1", "amount", 16.0).expect("n", 3L).expect("total", 26.0); // 110 s is now out
        }
    }

    @Test
    void duplicateIsNotCountedAgainAndCarriesTheCurrentValues() throws QueryException {
        try (ExampleStream s = ExampleStream.byCard(0, LateEventPolicy.DROP)) {
            s.add("SELECT COUNT(*) AS n, SUM(amount) AS total FROM payments GROUP BY card [RANGE 1 HOUR]");
            ExampleStream.Step first = s.send(0, "card", "c1", "amount", 5.0).counted().expect("n", 1L);
            ExampleStream.Step second = s.send(S, "card", "c1", "amount", 7.0).counted().expect("n", 2L);
            s.resend(first).expectFlags(true, false).expect("n", 2L).expect("total", 12.0);
            s.resend(second).expectFlags(true, false).expect("n", 2L).expect("total", 12.0);
        }
    }

    @Test
    void reSentEventOlderThanTheDedupHorizonIsTreatedAsLate() throws QueryException {
        // horizon = max(min horizon 0, lateness 0, window 10 s) = 10 s
        try (ExampleStream s = new ExampleStream(0, LateEventPolicy.DROP, 0, List.of("card"), 1)) {
            s.add("SELECT COUNT(*) AS n FROM payments GROUP BY card [RANGE 10 SECONDS]");
            ExampleStream.Step old = s.send(0, "card", "c1").expect("n", 1L);
            s.resend(old).expectFlags(true, false).expect("n", 1L);
            s.send(20 * S, "card", "c1").expect("n", 1L);
            s.resend(old).expectFlags(false, true).expect("n", 1L);
        }
    }

    @Test
    void nullsAreIgnoredByAggregatesAndNeverPassAFilter() throws QueryException {
        try (ExampleStream s = ExampleStream.byCard(0, LateEventPolicy.DROP)) {
            s.add("SELECT COUNT(*) AS n, COUNT(amount) AS na, SUM(amount) AS total, AVG(amount) AS avg, MIN(amount) AS low"
                    + " FROM payments GROUP BY card [RANGE 10 SECONDS]");
            s.add("SELECT COUNT(*) AS big FROM payments WHERE amount > 1 GROUP BY card [RANGE 10 SECONDS]");
            s.add("SELECT COUNT(*) AS notbig FROM payments WHERE NOT (amount > 1) GROUP BY card [RANGE 10 SECONDS]");
            s.send(0, "card", "c1").expect("n", 1L).expect("na", 0L).expect("total", null).expect("avg", null).expect("low", null)
                    .expect("big", 0L).expect("notbig", 0L);
            s.send(S, "card", "c1", "amount", 5.0).expect("n", 2L).expect("na", 1L).expect("total", 5.0).expect("avg", 5.0)
                    .expect("low", 5.0).expect("big", 1L).expect("notbig", 0L);
            s.send(2 * S, "card", "c1").expect("n", 3L).expect("na", 1L).expect("total", 5.0).expect("avg", 5.0);
            s.send(12 * S + 500, "card", "c1").expect("n", 1L).expect("na", 0L).expect("total", null).expect("avg", null)
                    .expect("big", 0L);
        }
    }

    @Test
    void sampleDeviationOfOneValueIsNullAndPopulationDeviationZero() throws QueryException {
        try (ExampleStream s = ExampleStream.byCard(0, LateEventPolicy.DROP)) {
            s.add("SELECT STDDEV_SAMP(amount) AS sd, STDDEV_POP(amount) AS sdp, VAR_SAMP(amount) AS vs, VAR_POP(amount) AS vp,"
                    + " STDDEV(amount) AS sd2 FROM payments GROUP BY card [RANGE UNBOUNDED]");
            s.send(0, "card", "c1", "amount", 2.0).expect("sd", null).expect("sdp", 0.0).expect("vs", null).expect("vp", 0.0)
                    .expect("sd2", null);
            s.send(S, "card", "c1", "amount", 4.0).expect("sd", Math.sqrt(2)).expect("sdp", 1.0).expect("vs", 2.0).expect("vp", 1.0)
                    .expect("sd2", Math.sqrt(2));
            s.send(2 * S, "card", "c1", "amount", 4.0).expect("vp", 8.0 / 9).expect("vs", 4.0 / 3).expect("sdp", Math.sqrt(8.0 / 9))
                    .expect("sd", Math.sqrt(4.0 / 3));
        }
    }

    @Test
    void spreadOfTheOneValueLeftAfterAnExpiryIsExactlyZero() throws QueryException {
        // brute force over the window {0.1} gives exactly 0; rounding residue of the expired 99.9 must not show
        try (ExampleStream s = ExampleStream.byCard(0, LateEventPolicy.DROP)) {
            s.add("SELECT STDDEV_POP(amount) AS sd, VAR_POP(amount) AS v, SUM(amount) AS total FROM payments GROUP BY card [RANGE 10 SECONDS]");
            s.send(0, "card", "c1", "amount", 99.9).expect("sd", 0.0).expect("v", 0.0);
            s.send(20 * S, "card", "c1", "amount", 0.1).expect("total", 0.1).expect("sd", 0.0).expect("v", 0.0);
        }
    }

    @Test
    void maxExpiresAndTheNextMaxAppears() throws QueryException {
        try (ExampleStream s = ExampleStream.byCard(0, LateEventPolicy.DROP)) {
            s.add("SELECT MAX(amount) AS high, MIN(amount) AS low FROM payments GROUP BY card [RANGE 10 SECONDS]");
            s.send(0, "card", "c1", "amount", 5.0).expect("high", 5.0).expect("low", 5.0);
            s.send(2 * S, "card", "c1", "amount", 9.0).expect("high", 9.0).expect("low", 5.0);
            s.send(4 * S, "card", "c1", "amount", 7.0).expect("high", 9.0).expect("low", 5.0);
            s.send(11 * S, "card", "c1", "amount", 3.0).expect("high", 9.0).expect("low", 3.0); // 5 expired
            s.send(12 * S + 500, "card", "c1", "amount", 6.0).expect("high", 7.0).expect("low", 3.0); // 9 expired
            s.send(14 * S + 500, "card", "c1", "amount", 8.0).expect("high", 8.0).expect("low", 3.0); // 7 expired
        }
    }

    @Test
    void lastIsTheNewestByTimestampThenByArrival() throws QueryException {
        try (ExampleStream s = ExampleStream.byCard(MIN, LateEventPolicy.DROP)) {
            s.add("SELECT LAST(amount) AS last FROM payments GROUP BY card [RANGE 1 HOUR]");
            s.send(10 * S, "card", "c1", "amount", 1.0).expect("last", 1.0);
            s.send(30 * S, "card", "c1", "amount", 2.0).expect("last", 2.0);
            s.send(20 * S, "card", "c1", "amount", 3.0).counted().expect("last", 2.0); // inserted before the newest
            s.send(30 * S, "card", "c1", "amount", 4.0).expect("last", 4.0); // same timestamp, accepted later
            s.send(25 * S, "card", "c1", "amount", 5.0).expect("last", 4.0);
            s.send(31 * S, "card", "c1").expect("last", 4.0); // NULL is ignored
        }
    }

    @Test
    void statementWithoutPartitionerIsRejectedAndAddsNothing() throws QueryException {
        try (ExampleStream s = ExampleStream.byCard(0, LateEventPolicy.DROP)) {
            assertThatThrownBy(() -> s.add("SELECT COUNT(*) AS x FROM payments GROUP BY country [RANGE 1 MINUTE]"))
                    .isInstanceOf(QueryException.class);
            assertThatThrownBy(() -> s.add("SELECT COUNT(*) AS ok1, SUM(nosuch) AS bad FROM payments GROUP BY card [RANGE 1 MINUTE]"))
                    .isInstanceOf(QueryException.class);
            s.add("SELECT COUNT(*) AS n FROM payments GROUP BY card, country [RANGE 1 MINUTE]");
            ExampleStream.Step step = s.send(0, "card", "c1", "country", "PT").expect("n", 1L);
            assertThat(step.actual().metrics()).containsOnlyKeys("n");
        }
    }

    @Test
    void removedMetricDisappearsAndTheOthersStayExact() throws QueryException {
        try (ExampleStream s = new ExampleStream(0, LateEventPolicy.DROP, 0, List.of("card"), 1)) {
            s.add("SELECT COUNT(*) AS n, SUM(amount) AS total FROM payments GROUP BY card [RANGE 10 SECONDS]");
            s.add("SELECT MAX(amount) AS high FROM payments GROUP BY card [RANGE 1 DAY]");
            s.send(0, "card", "c1", "amount", 1.0).expect("n", 1L).expect("high", 1.0);
            s.send(S, "card", "c1", "amount", 2.0).expect("n", 2L).expect("high", 2.0);
            assertThat(s.remove("total")).isTrue();
            ExampleStream.Step after = s.send(10 * S + 500, "card", "c1", "amount", 4.0).expect("n", 2L).expect("high", 4.0);
            assertThat(after.actual().metrics()).containsOnlyKeys("n", "high");
            assertThat(s.remove("total")).isFalse();
            assertThat(s.remove("high")).isTrue();
            s.send(12 * S, "card", "c1", "amount", 8.0).expect("n", 2L);
            assertThat(s.read("n", "card", "c1")).isEqualTo(2L);
        }
    }

    @Test
    void distinctTreatsNegativeZeroAsZeroAndStringsCaseSensitively() throws QueryException {
        try (ExampleStream s = ExampleStream.byCard(0, LateEventPolicy.DROP)) {
            s.add("SELECT COUNT(DISTINCT balance) AS db, COUNT(DISTINCT country) AS dc FROM payments GROUP BY card [RANGE UNBOUNDED]");
            s.send(0, "card", "c1", "balance", 0.0, "country", "PT").expect("db", 1L).expect("dc", 1L);
            s.send(S, "card", "c1", "balance", -0.0, "country", "pt").expect("db", 1L).expect("dc", 2L);
            s.send(2 * S, "card", "c1", "balance", 1.5).expect("db", 2L).expect("dc", 2L);
            s.send(3 * S, "card", "c1", "country", "PT").expect("db", 2L).expect("dc", 2L);
        }
    }

    @Test
    void stringMinMaxFollowCodePointOrder() throws QueryException {
        String fullwidthZ = "\uFF5A";
        String emoji = "\uD83D\uDE00"; // U+1F600: after U+FF5A in code points, before it in UTF-16 units
        try (ExampleStream s = ExampleStream.byCard(0, LateEventPolicy.DROP)) {
            s.add("SELECT MIN(merchant) AS low, MAX(merchant) AS high FROM payments GROUP BY card [RANGE UNBOUNDED]");
            s.send(0, "card", "c1", "merchant", fullwidthZ).expect("low", fullwidthZ).expect("high", fullwidthZ);
            s.send(S, "card", "c1", "merchant", emoji).expect("low", fullwidthZ).expect("high", emoji);
            s.send(2 * S, "card", "c1", "merchant", "Z").expect("low", "Z").expect("high", emoji);
            s.send(3 * S, "card", "c1", "merchant", "").expect("low", "").expect("high", emoji);
        }
    }

    @Test
    void longDivisionTruncatesAndDivisionByZeroIsNull() throws QueryException {
        try (ExampleStream s = ExampleStream.byCard(0, LateEventPolicy.DROP)) {
            s.add("SELECT SUM(qty / 2) AS half, COUNT(amount / qty) AS ratios, SUM(amount / qty) AS ratio FROM payments"
                    + " GROUP BY card [RANGE UNBOUNDED]");
            s.send(0, "card", "c1", "qty", -3L, "amount", 3.0).expect("half", -1L).expect("ratios", 1L).expect("ratio", -1.0);
            s.send(S, "card", "c1", "qty", 0L, "amount", 1.0).expect("half", -1L).expect("ratios", 1L).expect("ratio", -1.0);
            s.send(2 * S, "card", "c1", "qty", 5L, "amount", 10.0).expect("half", 1L).expect("ratios", 2L).expect("ratio", 1.0);
        }
    }

    @Test
    void likeMatchesCodePointsAndInWithNullIsNeverFalse() throws QueryException {
        try (ExampleStream s = ExampleStream.byCard(0, LateEventPolicy.DROP)) {
            s.add("SELECT COUNT(*) AS one FROM payments WHERE merchant LIKE 'm_' GROUP BY card [RANGE UNBOUNDED]");
            s.add("SELECT COUNT(*) AS notin FROM payments WHERE country NOT IN ('PT', NULL) GROUP BY card [RANGE UNBOUNDED]");
            s.add("SELECT COUNT(*) AS inlist FROM payments WHERE country IN ('PT', NULL) GROUP BY card [RANGE UNBOUNDED]");
            s.send(0, "card", "c1", "merchant", "m\uD83D\uDE00", "country", "PT").expect("one", 1L).expect("notin", 0L).expect("inlist", 1L);
            s.send(S, "card", "c1", "merchant", "m\uD83D\uDE00x", "country", "ES").expect("one", 1L).expect("notin", 0L).expect("inlist", 1L);
            s.send(2 * S, "card", "c1", "merchant", "M1").expect("one", 1L).expect("notin", 0L);
            s.send(3 * S, "card", "c1", "merchant", "m1").expect("one", 2L);
        }
    }
}
