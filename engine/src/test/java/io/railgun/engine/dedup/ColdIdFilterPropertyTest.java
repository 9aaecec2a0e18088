package io.railgun.engine.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.state.MapColdKeys;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * {@link ColdIdFilter} and {@link SavedColdIdFilter} against a model of the cold tier (each id and the timestamp it was stored
 * with): never a false negative for an id the tier holds (timestamp after the forget boundary),
 * through forgetting, boundaries moving back, saves and loads through a store (a checkpoint and a
 * restore: what was added after the last save is lost from both), and replacement by a filter of
 * another width; false positives stay rare while it answers; dropped generations leave the store.
 */
class ColdIdFilterPropertyTest {
    @Property(tries = 40)
    void noIdTheColdTierHoldsIsEverRuledOut(@ForAll("seeds") long seed) {
        Random r = new Random(seed);
        long width = 1 + r.nextInt(r.nextBoolean() ? 100 : 100_000);
        MapColdKeys store = new MapColdKeys();
        ColdIdFilter filter = ColdIdFilter.forWidth(width, Long.MIN_VALUE);
        Map<String, Long> tier = new HashMap<>(); // id -> timestamp, as the cold tier holds them
        Map<String, Long> saved = new HashMap<>(); // the tier as of the last save (a checkpoint)
        long clock = r.nextLong(-1_000_000, 1_000_000);
        long boundary = clock - width;
        long mark = Long.MIN_VALUE; // the last checkpoint's spill mark
        ColdIdFilter savedFilter = null;
        long completeAfter = Long.MIN_VALUE; // what the test's filter may miss
        long savedCompleteAfter = Long.MIN_VALUE;
        int ops = 2_000 + r.nextInt(20_000);
        for (int op = 0; op < ops; op++) {
            int what = r.nextInt(1000);
            if (what < 800) { // spill an id of an event at most one width old
                long t = boundary + 1 + (long) (r.nextDouble() * (clock - boundary));
                String id = "id-" + r.nextInt(ops);
                tier.put(id, t);
                filter.add(bytes(id), 0, bytes(id).length, t);
            } else if (what < 950) { // time passes: the forget boundary follows
                clock += r.nextInt((int) Math.min(Integer.MAX_VALUE, Math.max(1, width / 4)));
                boundary = r.nextInt(20) == 0 ? boundary - r.nextInt((int) Math.min(1000, width)) : clock - width;
                long b = boundary;
                tier.values().removeIf(t -> t <= b);
                filter.forgetBefore(boundary);
            } else if (what < 985) { // a checkpoint; its spill mark is at or after every cold id's timestamp
                mark = Math.max(mark, tier.values().stream().mapToLong(Long::longValue).max().orElse(Long.MIN_VALUE));
                filter.save(store, mark);
                saved = new HashMap<>(tier);
                savedCompleteAfter = completeAfter;
                savedFilter = filter;
            } else if (what < 997) { // a crash, and a restore from the last checkpoint
                // another checkpoint's directory, or one a version without the filter took: not trusted
                ColdIdFilter other = SavedColdIdFilter.restore(store, mark + 1, true, true, width);
                assertThat(other.generations()).isZero();
                assertThat(other.completeAfter()).isEqualTo(mark + 1);
                assertThat(SavedColdIdFilter.restore(store, mark, false, true, width).completeAfter()).isEqualTo(mark);
                filter = SavedColdIdFilter.restore(store, mark, true, true, width);
                tier = new HashMap<>(saved);
                long b = boundary;
                tier.values().removeIf(t -> t <= b);
                // kept when it suits the width, else replaced, missing what the checkpoint's tier held
                completeAfter = savedFilter == null ? Long.MIN_VALUE
                        : savedFilter.suits(width) ? savedCompleteAfter : mark;
                filter.forgetBefore(boundary);
            } else { // the horizon changes: a new filter, missing what the tier holds now
                width = 1 + r.nextInt(100_000);
                long coldHigh = tier.values().stream().mapToLong(Long::longValue).max().orElse(Long.MIN_VALUE);
                if (!filter.suits(width)) {
                    filter = ColdIdFilter.replacing(filter, width, coldHigh);
                    completeAfter = coldHigh;
                }
                filter.forgetBefore(boundary);
            }
            // it answers as soon as what it may miss is forgotten (a filter that always said "maybe" fails here)
            assertThat(filter.answers()).as("answers, boundary %d, complete after %d, %d generations, %d bytes, width %d, op %d", boundary, completeAfter, filter.generations(), filter.bytes(), width, op)
                    .isEqualTo(boundary >= completeAfter);
            if (op % 97 == 0 || op == ops - 1) {
                for (Map.Entry<String, Long> e : tier.entrySet()) {
                    byte[] b = bytes(e.getKey());
                    assertThat(filter.mightContain(b, 0, b.length)).as("cold id %s at %d, boundary %d", e.getKey(),
                            e.getValue(), boundary).isTrue();
                }
            }
        }
        filter.save(store, mark);
        assertThat(store.keysWithTag((byte) 3)).as("generations in the store: the filter's only").isEqualTo(filter.generations());
        if (filter.answers()) {
            int falsePositives = 0;
            for (int i = 0; i < 10_000; i++) {
                byte[] b = bytes("never-" + i);
                if (filter.mightContain(b, 0, b.length)) {
                    falsePositives++;
                }
            }
            // each live generation adds its own rate (about 1-2%), and forgotten ids linger one span
            assertThat(falsePositives).as("false positives of 10,000, %d generations", filter.generations())
                    .isLessThan(10_000 * 12 / 100);
        }
    }

    @Test
    void aFilterRestoredWithoutASavedOneAnswersOnlyOnceItsMissingIdsAreForgotten() {
        ColdIdFilter f = ColdIdFilter.forWidth(800, 1_000); // ids up to t = 1,000 may be missing
        f.forgetBefore(500);
        assertThat(f.answers()).isFalse();
        assertThat(f.mightContain(bytes("x"), 0, 1)).isTrue();
        f.forgetBefore(1_000);
        assertThat(f.answers()).isTrue();
        assertThat(f.mightContain(bytes("x"), 0, 1)).isFalse();
    }

    @Test
    void tooManyGenerationsAndItGivesUpForGood() {
        ColdIdFilter f = ColdIdFilter.forWidth(40, Long.MIN_VALUE); // span 10
        for (int g = 0; g <= ColdIdFilter.MAX_GENERATIONS; g++) {
            f.add(bytes("id" + g), 0, bytes("id" + g).length, g * 10L);
        }
        assertThat(f.answers()).isFalse();
        assertThat(f.generations()).isZero();
        f.forgetBefore(Long.MAX_VALUE - 1);
        assertThat(f.mightContain(bytes("never"), 0, 5)).isTrue();
        MapColdKeys store = new MapColdKeys();
        f.save(store, 7);
        assertThat(SavedColdIdFilter.restore(store, 7, true, true, 40).answers()).as("given up, saved so").isFalse();
    }

    @Test
    void idsSpilledAfterAJumpInTimeAreNotAddedWhenForgottenAtOnce() {
        ColdIdFilter f = ColdIdFilter.forWidth(60, Long.MIN_VALUE); // span 15
        f.forgetBefore(10_000); // the stream jumped: the ids spilled next are forgotten at once
        for (int t = 0; t <= 10_000; t++) {
            f.add(bytes("id" + t), 0, bytes("id" + t).length, t);
        }
        assertThat(f.generations()).isZero();
        assertThat(f.answers()).isTrue();
        f.add(bytes("late"), 0, 4, 10_001);
        assertThat(f.generations()).isOne();
        assertThat(f.mightContain(bytes("late"), 0, 4)).isTrue();
    }

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.randomValue(Random::nextLong);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
