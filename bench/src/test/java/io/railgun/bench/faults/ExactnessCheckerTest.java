package io.railgun.bench.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checker fails on each kind of error it is there to find, and passes an exact run. */
class ExactnessCheckerTest {
    private final ExactnessChecker checker = new ExactnessChecker("s", "n", "all");
    private final BruteForceOracle oracle = new BruteForceOracle(10_000, 5_000, 3_600_000, "s", "all");
    private final List<SentEvent> sent = List.of(new SentEvent("f0", "c1", 1_000, 4), new SentEvent("f1", "c1", 2_000, 6),
            new SentEvent("f2", "c1", 3_000, 1));

    private List<InputRecord> topic(boolean withF1Twice) {
        List<InputRecord> p = new ArrayList<>();
        p.add(InputRecord.statement(0, 0, List.of("s", "n")));
        p.add(InputRecord.statement(0, 1, List.of("all")));
        p.add(InputRecord.event(0, 2, "f0", "c1", 1_000, 4));
        p.add(InputRecord.event(0, 3, "f1", "c1", 2_000, 6));
        if (withF1Twice) {
            p.add(InputRecord.event(0, 4, "f1", "c1", 2_000, 6));
        }
        p.add(InputRecord.event(0, 5, "f2", "c1", 3_000, 1));
        return p;
    }

    private static Attempt ok(int event, int attempt, String body) {
        return new Attempt(event, attempt, "n1", 0, 0, 1, 200, body);
    }

    private static String reply(String id, double sum, long n, long all, String flags) {
        return "{\"eventId\":\"" + id + "\",\"metrics\":{\"s\":" + sum + ",\"n\":" + n + ",\"all\":" + all + "}" + flags + "}";
    }

    @Test
    void exactRepliesPassIncludingARetryAnsweredAsDuplicate() {
        List<Attempt> attempts = List.of(ok(0, 1, reply("f0", 1.0, 1, 1, "")),
                new Attempt(1, 1, "n2", 0, 0, 1, 503, "{\"error\":\"timeout\"}"), ok(1, 2, reply("f1", 2.5, 2, 2, ",\"duplicate\":true")),
                ok(2, 1, reply("f2", 2.75, 3, 3, "")));
        ExactnessChecker.Result r = checker.check(sent, attempts, oracle.recompute(topic(true)), 1);
        assertThat(r.offenders()).isEmpty();
        assertThat(r.exact()).isTrue();
        assertThat(r.checkedReplies()).isEqualTo(3);
        assertThat(r.duplicateReplies()).isEqualTo(1);
        assertThat(r.writtenMoreThanOnce()).isEqualTo(1);
        assertThat(r.unacknowledgedInTopic()).isZero();
    }

    @Test
    void aValueCountedTwiceFails() {
        // f1 counted again by its retry: the count says 3 where the recomputation says 2
        List<Attempt> attempts = List.of(ok(0, 1, reply("f0", 1.0, 1, 1, "")), ok(1, 2, reply("f1", 4.0, 3, 3, "")));
        ExactnessChecker.Result r = checker.check(sent, attempts, oracle.recompute(topic(true)), 1);
        assertThat(r.exact()).isFalse();
        assertThat(r.countedTwice()).isEqualTo(1);
    }

    @Test
    void twoCountedRepliesForOneIdFail() {
        List<Attempt> attempts = List.of(ok(1, 1, reply("f1", 2.5, 2, 2, "")), ok(1, 2, reply("f1", 2.5, 2, 2, "")));
        ExactnessChecker.Result r = checker.check(sent, attempts, oracle.recompute(topic(true)), 1);
        assertThat(r.exact()).isFalse();
        assertThat(r.countedTwice()).isEqualTo(1);
    }

    @Test
    void anAcknowledgedEventMissingFromTheTopicIsLost() {
        List<InputRecord> p = new ArrayList<>(topic(false));
        p.removeIf(x -> "f2".equals(x.id()));
        List<Attempt> attempts = List.of(ok(0, 1, reply("f0", 1.0, 1, 1, "")), ok(2, 1, reply("f2", 2.75, 3, 3, "")));
        ExactnessChecker.Result r = checker.check(sent, attempts, oracle.recompute(p), 1);
        assertThat(r.exact()).isFalse();
        assertThat(r.lost()).isEqualTo(1);
    }

    @Test
    void aWrongFlagOrAWrongSumFails() {
        List<Expected> x = oracle.recompute(topic(false));
        assertThat(checker.check(sent, List.of(ok(0, 1, reply("f0", 1.0, 1, 1, ",\"duplicate\":true"))), x, 1).exact()).isFalse();
        assertThat(checker.check(sent, List.of(ok(0, 1, reply("f0", 1.25, 1, 1, ""))), x, 1).exact()).isFalse();
        assertThat(checker.check(sent, List.of(ok(0, 1, reply("f0", 1.0, 1, 1, ",\"dropped\":\"late\""))), x, 1).exact()).isFalse();
        assertThat(checker.check(sent, List.of(ok(0, 1, reply("f9", 1.0, 1, 1, ""))), x, 1).exact()).isFalse();
        assertThat(checker.check(sent, List.of(ok(0, 1, reply("f0", 1.0, 1, 1, ""))), x, 1).exact()).isTrue();
    }

    @Test
    void aRecordOutsideItsCardsPartitionFails() {
        int home = ExactnessChecker.partitionOf("c1", 4);
        List<InputRecord> elsewhere = topic(false).stream().map(r -> r.kind() != InputRecord.Kind.EVENT ? r
                : InputRecord.event((home + 1) % 4, r.offset(), r.id(), r.card(), r.ts(), r.amountQuarters())).toList();
        List<Attempt> replies = List.of(ok(0, 1, reply("f0", 1.0, 1, 1, "")));
        assertThat(checker.check(sent, replies, oracle.recompute(elsewhere), 4).notAsSent()).isEqualTo(3);
        List<InputRecord> home4 = topic(false).stream().map(r -> r.kind() != InputRecord.Kind.EVENT ? r
                : InputRecord.event(home, r.offset(), r.id(), r.card(), r.ts(), r.amountQuarters())).toList();
        assertThat(checker.check(sent, replies, oracle.recompute(home4), 4).exact()).isTrue();
    }

    @Test
    void aRecordThatDiffersFromWhatWasSentFailsAndNoReplyAtAllFails() {
        List<InputRecord> p = new ArrayList<>(topic(false));
        p.set(2, InputRecord.event(0, 2, "f0", "c1", 1_000, 5));
        ExactnessChecker.Result r = checker.check(sent, List.of(ok(0, 1, reply("f0", 1.25, 1, 1, ""))), oracle.recompute(p), 1);
        assertThat(r.notAsSent()).isEqualTo(1);
        assertThat(r.exact()).isFalse();
        assertThat(checker.check(sent, List.of(), oracle.recompute(topic(false)), 1).exact()).isFalse();
    }
}
