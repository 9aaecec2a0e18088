package io.railgun.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.query.AggregateFunction;
import io.railgun.engine.state.StateReader;
import io.railgun.engine.state.StateWriter;
import io.railgun.engine.task.ReplyProbe;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * SUM, AVG and the variances of doubles of every magnitude (subnormals, 1e-300, 1e300,
 * {@code Double.MAX_VALUE}, mixed with money amounts and integers), added and removed in random
 * order, against exact BigDecimal arithmetic over the values held after every step: a key holding
 * values outside the fixed-point range reads the correctly rounded result (nothing of departed
 * values stays behind), one holding only values inside it within 2 ulps; an exact 0 is 0; a result
 * beyond the double range is NULL. The key's state is saved and loaded into another slot of a new
 * aggregator at random steps.
 */
class MomentsAllMagnitudesPropertyTest {
    private static final List<AggregateFunction> SUMS = List.of(AggregateFunction.SUM, AggregateFunction.AVG);
    private static final List<AggregateFunction> VARIANCES = List.of(AggregateFunction.VAR_POP, AggregateFunction.VAR_SAMP,
            AggregateFunction.STDDEV_POP, AggregateFunction.STDDEV_SAMP);
    private static final double[] SPECIAL = {Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_VALUE, -Double.MIN_VALUE,
        Double.MIN_NORMAL, 1e-300, -1e-300, 1e300, -1e300, 1e-30, 1e-21, 1e-19, 0x1p126, 0x1p-97, 0x1p-96, 0.0, -0.0};

    /** An evaluator returning a preset double. */
    private static final class Preset extends Evaluator {
        Preset() {
            super(ValueType.DOUBLE);
        }

        @Override
        public boolean eval(EventRow row) {
            return true;
        }
    }

    /** An aggregator owning a state, the functions read from it, and the key's record (at offset 1, slot {@code slot}). */
    private static final class Key {
        final Preset argument = new Preset();
        final AggregateFunction owner;
        MomentsAggregator state;
        long[] record;
        int slot;

        Key(AggregateFunction owner, int slot) {
            this.owner = owner;
            this.slot = slot;
            state = new MomentsAggregator(owner, argument);
            state.offset(1);
            record = new long[1 + state.width()];
        }

        void update(double x, boolean remove) {
            argument.doubleValue = x;
            if (remove) {
                state.expire(record, 0, slot, 0, 0, null);
            } else {
                state.arrive(record, 0, slot, 0, 0, null);
            }
        }

        /** Saves the key, loads it into another slot of a new aggregator, and drops it from the old one. */
        void move(int to) {
            StateWriter out = new StateWriter();
            out.putLongs(record, 0, record.length);
            state.saveExternal(slot, out);
            state.reset(slot);
            MomentsAggregator moved = new MomentsAggregator(owner, argument);
            moved.offset(1);
            moved.ensureCapacity(to + 1);
            long[] loaded = new long[record.length];
            StateReader in = new StateReader().reset(out.buffer(), 0, out.length());
            in.getLongs(loaded, 0, loaded.length);
            moved.loadExternal(loaded, 0, to, in);
            assertThat(in.hasRemaining()).as("loadExternal read all it saved").isFalse();
            state = moved;
            record = loaded;
            slot = to;
        }
    }

    @Property(tries = 300)
    void everyMagnitudeIsExact(@ForAll long seed) {
        Random random = new Random(seed);
        Key sums = new Key(random.nextBoolean() ? AggregateFunction.SUM : AggregateFunction.AVG, random.nextInt(4));
        Key variances = new Key(VARIANCES.get(random.nextInt(4)), random.nextInt(4));
        List<Double> held = new ArrayList<>();
        List<Double> pool = new ArrayList<>(); // earlier values: equal values come back
        int steps = 1 + random.nextInt(60);
        for (int step = 0; step < steps; step++) {
            boolean remove = !held.isEmpty() && random.nextInt(5) < 2;
            double x;
            if (remove) {
                x = held.remove(random.nextInt(held.size()));
            } else {
                x = !pool.isEmpty() && random.nextInt(4) == 0 ? pool.get(random.nextInt(pool.size())) : value(random);
                held.add(x);
                pool.add(x);
            }
            sums.update(x, remove);
            variances.update(x, remove);
            if (random.nextInt(8) == 0) {
                sums.move(random.nextInt(6));
                variances.move(random.nextInt(6));
            }
            String context = "seed " + seed + " step " + step + ", holding " + held;
            for (AggregateFunction f : SUMS) {
                check(f, sums, held, context);
            }
            for (AggregateFunction f : VARIANCES) {
                check(f, variances, held, context);
            }
        }
    }

    /** The variance of two values 1 ulp apart near 1e-21, after a value near 1e-19 left: was 1.3e-68 (the fallback's residue). */
    @Example
    void departedValuesLeaveNothingBehind() {
        Key key = new Key(AggregateFunction.VAR_SAMP, 0);
        double big = 1.2345678901234567e-19;
        double small = 1.0000000000000001e-21;
        key.update(big, false);
        key.update(small, false);
        key.update(Math.nextUp(small), false);
        key.update(big, true);
        List<Double> held = List.of(small, Math.nextUp(small));
        for (AggregateFunction f : VARIANCES) {
            check(f, key, held, "after the large value left");
        }
    }

    private static void check(AggregateFunction f, Key key, List<Double> held, String context) {
        Double actual = (Double) new ReplyProbe().value(key.state.reader(f), key.record, 0, held.isEmpty() ? -1 : key.slot);
        int n = held.size();
        boolean sample = f == AggregateFunction.VAR_SAMP || f == AggregateFunction.STDDEV_SAMP;
        String what = f + ", " + context;
        if (n == 0 || (sample && n == 1)) {
            assertThat(actual).as(what).isNull();
            return;
        }
        BigDecimal s1 = BigDecimal.ZERO;
        BigDecimal s2 = BigDecimal.ZERO;
        boolean wide = false;
        for (double x : held) {
            BigDecimal v = new BigDecimal(x);
            s1 = s1.add(v);
            s2 = s2.add(v.multiply(v));
            wide |= FixedPoint.split(x) == FixedPoint.NOT_EXACT;
        }
        BigDecimal count = BigDecimal.valueOf(n);
        BigDecimal num;
        BigDecimal den;
        switch (f) {
            case SUM -> {
                num = s1;
                den = BigDecimal.ONE;
            }
            case AVG -> {
                num = s1;
                den = count;
            }
            default -> {
                num = count.multiply(s2).subtract(s1.multiply(s1));
                den = count.multiply(sample ? BigDecimal.valueOf(n - 1) : count);
            }
        }
        boolean root = f == AggregateFunction.STDDEV_POP || f == AggregateFunction.STDDEV_SAMP;
        if (RoundingCheck.overflows(num, den, root)) {
            assertThat(actual).as(what + ": beyond the double range").isNull();
        } else if (num.signum() == 0) {
            assertThat(actual).as(what).isEqualTo(0.0);
        } else {
            assertThat(actual).as(what).isNotNull();
            int ulps = wide ? 0 : 2;
            assertThat(RoundingCheck.near(actual, ulps, num, den, root)).as("%s: %s not within %d ulps of %s", what, actual, ulps,
                    root ? "sqrt(" + num + " / " + den + ")" : num + " / " + den).isTrue();
        }
    }

    /** A double of any magnitude: special values, subnormals, tiny, huge, money, integers. */
    private static double value(Random random) {
        double sign = random.nextBoolean() ? 1 : -1;
        return switch (random.nextInt(8)) {
            case 0 -> SPECIAL[random.nextInt(SPECIAL.length)];
            case 1 -> sign * Double.longBitsToDouble(random.nextLong(1L << 52)); // subnormal
            case 2 -> sign * Math.scalb(1 + random.nextDouble(), -1022 + random.nextInt(925)); // tiny: 2^-1022 .. 2^-97
            case 3 -> sign * Math.scalb(1 + random.nextDouble(), 126 + random.nextInt(898)); // huge: 2^126 .. 2^1023
            case 4 -> random.nextInt(-100_000, 100_000) / 100.0;
            case 5 -> (double) random.nextLong(-1_000_000_000_000L, 1_000_000_000_000L);
            case 6 -> sign * Math.scalb(1 + random.nextDouble(), -60 + random.nextInt(120)); // in range
            default -> sign * Math.scalb(random.nextDouble(), random.nextInt(-1074, 1024)); // anywhere
        };
    }
}
