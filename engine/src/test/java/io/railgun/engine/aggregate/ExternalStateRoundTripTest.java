package io.railgun.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.query.AggregateFunction;
import io.railgun.engine.state.StateReader;
import io.railgun.engine.state.StateWriter;
import io.railgun.engine.task.Reply;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A key's state survives being saved ({@link Aggregator#saveExternal} plus its record longs), its
 * slot reset, and being loaded into another slot: two copies of an aggregator fed the same stream
 * (several keys, nulls, duplicate values, out-of-order arrivals, expiries in (timestamp, seq) order)
 * write the same values after every step, while copy B keeps moving keys out of memory and back into
 * other slots, and hands the freed slots to other keys. Simple functions are also checked against a
 * brute-force oracle over the window's values.
 */
class ExternalStateRoundTripTest {
    private static final int KEYS = 3;
    private static final int SLOTS_B = KEYS + 2;
    private static final int STEPS = 300;
    private static final int SEEDS = 60;
    private static final long[] NO_RECORD = new long[64];

    /** An evaluator returning a preset value (null = SQL NULL); strings sit at an offset in a bigger buffer. */
    private static final class Preset extends Evaluator {
        Object value;

        Preset(ValueType t) {
            super(t);
        }

        @Override
        public boolean eval(EventRow row) {
            switch (value) {
                case null -> {
                    return false;
                }
                case Long l -> longValue = l;
                case Double d -> doubleValue = d;
                case Boolean b -> longValue = b ? 1 : 0;
                case String s -> {
                    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
                    stringBuffer = new byte[utf8.length + 5];
                    stringOffset = 3;
                    stringLength = utf8.length;
                    System.arraycopy(utf8, 0, stringBuffer, 3, utf8.length);
                }
                default -> throw new IllegalArgumentException(value.toString());
            }
            return true;
        }
    }

    /** An aggregator under test, its argument type, and, for simple functions, a brute-force oracle. */
    record Spec(String name, ValueType type, Function<Evaluator, Aggregator> factory,
            Function<List<Object>, Object> oracle) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Spec> specs() {
        List<Spec> specs = new ArrayList<>();
        specs.add(new Spec("COUNT(*)", ValueType.LONG, e -> new CountAggregator(null), w -> (long) w.size()));
        for (ValueType t : List.of(ValueType.LONG, ValueType.DOUBLE, ValueType.BOOLEAN, ValueType.STRING)) {
            specs.add(new Spec("COUNT " + t, t, CountAggregator::new, w -> w.stream().filter(Objects::nonNull).count()));
            specs.add(new Spec("COUNT DISTINCT " + t, t, CountDistinctAggregator::new,
                    w -> (long) new HashSet<>(w.stream().filter(Objects::nonNull).map(ExternalStateRoundTripTest::normal).toList()).size()));
            // multiplicities from 2 (or 5: carried by 2, and restored counts not a multiple of that)
            // kept as those past Integer.MAX_VALUE - 1 are: the same results
            for (int largeFrom : new int[] {2, 5}) {
                specs.add(new Spec("COUNT DISTINCT " + t + ", large multiplicities from " + largeFrom, t,
                        e -> new CountDistinctAggregator(e, largeFrom),
                        w -> (long) new HashSet<>(w.stream().filter(Objects::nonNull).map(ExternalStateRoundTripTest::normal).toList()).size()));
            }
            specs.add(new Spec("MIN " + t, t, e -> extremum(false, e), w -> extremum(w, false)));
            specs.add(new Spec("MAX " + t, t, e -> extremum(true, e), w -> extremum(w, true)));
            specs.add(new Spec("LAST " + t, t, LastAggregator::new,
                    w -> w.reversed().stream().filter(Objects::nonNull).findFirst().map(ExternalStateRoundTripTest::normal).orElse(null)));
        }
        specs.add(new Spec("SUM LONG", ValueType.LONG, SumLongAggregator::new,
                w -> w.stream().filter(Objects::nonNull).map(v -> (Long) v).reduce(Long::sum).orElse(null)));
        for (ValueType t : List.of(ValueType.LONG, ValueType.DOUBLE)) {
            for (AggregateFunction f : List.of(AggregateFunction.SUM, AggregateFunction.AVG, AggregateFunction.VAR_POP,
                    AggregateFunction.VAR_SAMP, AggregateFunction.STDDEV_POP, AggregateFunction.STDDEV_SAMP)) {
                if (f != AggregateFunction.SUM || t == ValueType.DOUBLE) {
                    specs.add(new Spec(f + " " + t, t, e -> new MomentsAggregator(f, e), null));
                }
            }
        }
        return specs.stream();
    }

    private static Aggregator extremum(boolean max, Evaluator e) {
        return e.type() == ValueType.STRING ? new StringExtremumAggregator(max, e) : new ExtremumAggregator(max, e);
    }

    /** An event of the stream: its key, (timestamp, seq) and argument value. */
    record Ev(int key, long ts, long seq, Object value) {}

    private static final Comparator<Ev> EXPIRY_ORDER = Comparator.comparingLong(Ev::ts).thenComparingLong(Ev::seq);

    /** One copy of an aggregator and the records of its keys: [population, aggregator's longs] per slot. */
    private static final class Copy {
        final Preset argument;
        final Aggregator aggregator;
        final int stride;
        final long[] records;
        final Reply reply;

        Copy(Spec spec, int slots) {
            argument = new Preset(spec.type());
            aggregator = spec.factory().apply(argument);
            aggregator.offset(1);
            aggregator.ensureCapacity(slots);
            stride = 1 + aggregator.width();
            records = new long[slots * stride];
            reply = newReply(aggregator.resultType());
        }

        /** As the group-by node: the population counts before the aggregator sees the arrival. */
        void arrive(int slot, Ev e) {
            int base = slot * stride;
            records[base]++;
            argument.value = e.value();
            aggregator.arrive(records, base, slot, e.ts(), e.seq(), null);
        }

        /** As the group-by node; returns true when the key emptied (its record zeroed, its slot reset). */
        boolean expire(int slot, Ev e) {
            int base = slot * stride;
            argument.value = e.value();
            aggregator.expire(records, base, slot, e.ts(), e.seq(), null);
            if (--records[base] == 0) {
                clear(slot);
                return true;
            }
            return false;
        }

        void clear(int slot) {
            Arrays.fill(records, slot * stride, (slot + 1) * stride, 0L);
            aggregator.reset(slot);
        }

        Object value(int slot) {
            if (slot < 0) {
                aggregator.write(NO_RECORD, 0, -1, reply, 0);
            } else {
                aggregator.write(records, slot * stride, slot, reply, 0);
            }
            return reply.value(0);
        }

        byte[] save(int slot, StateWriter out) {
            out.clear();
            out.putLongs(records, slot * stride, stride);
            aggregator.saveExternal(slot, out);
            return Arrays.copyOf(out.buffer(), out.length());
        }

        void load(int slot, byte[] saved) {
            StateReader in = new StateReader().reset(saved, 0, saved.length);
            in.getLongs(records, slot * stride, stride);
            aggregator.loadExternal(records, slot * stride, slot, in);
            assertThat(in.hasRemaining()).as("loadExternal read all it saved").isFalse();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("specs")
    void savedKeysLoadIntoOtherSlotsUnchanged(Spec spec) {
        for (int seed = 0; seed < SEEDS; seed++) {
            run(spec, seed);
        }
    }

    private void run(Spec spec, long seed) {
        Random random = new Random(seed * 31 + spec.name().hashCode());
        Copy a = new Copy(spec, KEYS); // key k always at slot k
        Copy b = new Copy(spec, SLOTS_B);
        Copy fresh = new Copy(spec, 1);
        Object empty = fresh.value(0);
        StateWriter out = new StateWriter();

        int[] slotOf = new int[KEYS]; // B: the key's slot, or -1 (absent or saved)
        byte[][] saved = new byte[KEYS][];
        int[] savedFrom = new int[KEYS];
        Arrays.fill(slotOf, -1);
        ArrayDeque<Integer> free = new ArrayDeque<>(); // LIFO: a freed slot goes to the next new key
        for (int s = SLOTS_B - 1; s >= 0; s--) {
            free.push(s);
        }
        TreeSet<Ev> window = new TreeSet<>(EXPIRY_ORDER);
        long clock = 100;
        long seq = 0;
        Ev lastExpired = new Ev(0, Long.MIN_VALUE, 0, null);
        String context = spec + " seed " + seed;

        for (int step = 0; step < STEPS; step++) {
            int op = random.nextInt(100);
            if (op < 50 || window.isEmpty()) {
                int key = random.nextInt(KEYS);
                clock += random.nextInt(3);
                long ts = Math.max(lastExpired.ts(), clock - random.nextInt(6)); // late, but not behind the tail
                Ev e = new Ev(key, ts, seq++, randomValue(spec.type(), random));
                window.add(e);
                a.arrive(key, e);
                b.arrive(slotForEvent(b, key, slotOf, saved, savedFrom, free, random), e);
            } else if (op < 85) {
                Ev e = window.pollFirst();
                lastExpired = e;
                a.expire(e.key(), e);
                int slot = slotForEvent(b, e.key(), slotOf, saved, savedFrom, free, random);
                if (b.expire(slot, e)) {
                    slotOf[e.key()] = -1;
                    free.push(slot);
                }
            } else {
                int key = random.nextInt(KEYS);
                int slot = slotOf[key];
                if (slot >= 0) {
                    // evict: save, free the slot as the key table does, and check it holds nothing now
                    saved[key] = b.save(slot, out);
                    savedFrom[key] = slot;
                    b.clear(slot);
                    slotOf[key] = -1;
                    free.push(slot);
                    assertThat(b.value(slot)).as("%s: slot %d after save and reset", context, slot).isEqualTo(empty);
                    assertExternalStateEmpty(b, slot, out, context);
                }
            }
            for (int key = 0; key < KEYS; key++) {
                if (saved[key] != null && random.nextInt(4) == 0) {
                    slotForEvent(b, key, slotOf, saved, savedFrom, free, random); // load back at random times too
                }
                if (saved[key] == null) {
                    Object expected = a.value(key);
                    assertThat(b.value(slotOf[key])).as("%s: key %d after step %d", context, key, step).isEqualTo(expected);
                    if (spec.oracle() != null) {
                        List<Object> values = valuesOf(window, key);
                        Object oracle = values.isEmpty() ? empty : spec.oracle().apply(values);
                        assertThat(expected).as("%s: key %d after step %d, window %s", context, key, step, values).isEqualTo(oracle);
                    }
                }
            }
        }

        // a checkpoint of every key of B, loaded into a new copy, reads the same as A
        Copy c = new Copy(spec, SLOTS_B);
        for (int key = 0; key < KEYS; key++) {
            if (slotOf[key] >= 0) {
                int to = SLOTS_B - 1 - key;
                c.load(to, b.save(slotOf[key], out));
                assertThat(c.value(to)).as("%s: key %d from a checkpoint", context, key).isEqualTo(a.value(key));
            }
        }

        // drain: every key empties, leaving nothing behind in B
        while (!window.isEmpty()) {
            Ev e = window.pollFirst();
            int slot = slotForEvent(b, e.key(), slotOf, saved, savedFrom, free, random);
            if (b.expire(slot, e)) {
                slotOf[e.key()] = -1;
                free.push(slot);
            }
        }
        for (int s = 0; s < SLOTS_B; s++) {
            assertExternalStateEmpty(b, s, out, context);
        }
        if (b.aggregator instanceof CountDistinctAggregator cd) {
            assertThat(cd.distinctEntries()).as("%s: multiset entries left", context).isZero();
        }
    }

    /**
     * B's slot for an event of {@code key}: its slot when in memory; a random free slot other than the
     * one it was saved from when saved (loading it there); the most recently freed slot when new.
     */
    private static int slotForEvent(Copy b, int key, int[] slotOf, byte[][] saved, int[] savedFrom,
            ArrayDeque<Integer> free, Random random) {
        if (slotOf[key] >= 0) {
            return slotOf[key];
        }
        int slot;
        if (saved[key] != null) {
            List<Integer> others = free.stream().filter(s -> s != savedFrom[key]).toList();
            slot = others.get(random.nextInt(others.size()));
            free.remove(slot);
            b.load(slot, saved[key]);
            saved[key] = null;
        } else {
            slot = free.pop();
        }
        slotOf[key] = slot;
        return slot;
    }

    /** A reset slot saves no external state beyond an empty count or length (0, or -1 for no string). */
    private static void assertExternalStateEmpty(Copy b, int slot, StateWriter out, String context) {
        out.clear();
        b.aggregator.saveExternal(slot, out);
        assertThat(out.length()).as("%s: external state of reset slot %d", context, slot).isLessThanOrEqualTo(4);
        if (out.length() == 4) {
            int n = new StateReader().reset(out.buffer(), 0, 4).getInt();
            assertThat(n).as("%s: external state of reset slot %d", context, slot).isIn(0, -1);
        }
        for (int i = slot * b.stride; i < (slot + 1) * b.stride; i++) {
            assertThat(b.records[i]).isZero();
        }
    }

    private static List<Object> valuesOf(TreeSet<Ev> window, int key) {
        return window.stream().filter(e -> e.key() == key).map(Ev::value).toList();
    }

    private static Object randomValue(ValueType type, Random random) {
        if (random.nextInt(6) == 0) {
            return null;
        }
        return switch (type) {
            case LONG -> random.nextInt(8) == 0 ? random.nextLong() : (long) (random.nextInt(7) - 3);
            case DOUBLE -> new double[] {-1.5, 0.0, -0.0, 2.25, 1e300, -1e-300, 1e-320, 7.0}[random.nextInt(8)];
            case BOOLEAN -> random.nextBoolean();
            // 8 and 9 bytes, and a NUL byte: the longest a COUNT DISTINCT record holds, the shortest it does not,
            // and a value that differs from "" only by its length
            case STRING -> new String[] {"", "a", "b", "ab", "é", "zz", "x".repeat(40) + "y", "abcdefgh", "abcdefghi", "\0"}[random.nextInt(10)];
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    /** A value as written by the aggregators: -0.0 reads as 0.0. */
    private static Object normal(Object v) {
        return v instanceof Double d && d == 0.0 ? 0.0 : v;
    }

    @SuppressWarnings("unchecked")
    private static Object extremum(List<Object> window, boolean max) {
        Comparator<Object> order = (x, y) -> switch (x) {
            case String s -> Arrays.compareUnsigned(s.getBytes(StandardCharsets.UTF_8), ((String) y).getBytes(StandardCharsets.UTF_8));
            default -> ((Comparable<Object>) x).compareTo(y);
        };
        Stream<Object> values = window.stream().filter(Objects::nonNull).map(ExternalStateRoundTripTest::normal);
        return (max ? values.max(order) : values.min(order)).orElse(null);
    }

    /** A one-metric reply of the aggregator's type ({@code Reply.layout} is the task's; reached reflectively). */
    private static Reply newReply(ValueType type) {
        try {
            Reply reply = new Reply();
            Method layout = Reply.class.getDeclaredMethod("layout", String[].class, ValueType[].class);
            layout.setAccessible(true);
            layout.invoke(reply, new String[] {"m"}, new ValueType[] {type});
            return reply;
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
