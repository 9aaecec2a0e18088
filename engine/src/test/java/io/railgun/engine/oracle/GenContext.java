package io.railgun.engine.oracle;

import io.railgun.engine.schema.FieldType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * What the generators of one case share: the random source, the payment schema actually chosen,
 * the key domains and the time scale. Package-private plumbing of {@link PaymentCaseGenerator}.
 */
final class GenContext {
    static final List<String> CARDS = List.of("c1", "c2", "c3", "c4", "c5", "c\uD83D\uDE00");
    static final List<String> MERCHANTS = List.of("m1", "m2", "m.3", "o'x", "m\uD83D\uDE00", "\uFF4D4");
    static final List<String> COUNTRIES = List.of("PT", "ES", "FR", "DE", "\u00E9", "\uFF3A", "\uD83D\uDE00", "");
    static final List<Long> MCCS = List.of(5411L, 5812L, 7995L, 4829L, 0L, -1L);

    final Random random;
    final Map<String, FieldType> fields;
    final List<String> partitioners;
    final List<String> cards;
    final List<String> merchants;
    final List<String> countries;
    final List<Long> mccs;
    final long timeOrigin;
    final long scaleMs;

    GenContext(Random random, Map<String, FieldType> fields, List<String> partitioners, long timeOrigin, long scaleMs) {
        this.random = random;
        this.fields = fields;
        this.partitioners = partitioners;
        this.cards = pick(CARDS, 1 + random.nextInt(6));
        this.merchants = pick(MERCHANTS, 1 + random.nextInt(4));
        this.countries = pick(COUNTRIES, 1 + random.nextInt(5));
        this.mccs = pick(MCCS, 1 + random.nextInt(4));
        this.timeOrigin = timeOrigin;
        this.scaleMs = scaleMs;
    }

    boolean has(String field) {
        return fields.containsKey(field);
    }

    /** Fields of the schema among {@code candidates}. */
    List<String> present(String... candidates) {
        List<String> out = new ArrayList<>();
        for (String c : candidates) {
            if (has(c)) {
                out.add(c);
            }
        }
        return out;
    }

    boolean chance(double p) {
        return random.nextDouble() < p;
    }

    int between(int lo, int hi) {
        return lo + random.nextInt(hi - lo + 1);
    }

    long between(long lo, long hi) {
        return lo + (long) (random.nextDouble() * (hi - lo + 1));
    }

    <T> T oneOf(List<T> list) {
        return list.get(random.nextInt(list.size()));
    }

    @SafeVarargs
    final <T> T oneOf(T... items) {
        return items[random.nextInt(items.length)];
    }

    /** Log-uniform in [lo, hi]. */
    long logUniform(long lo, long hi) {
        double l = Math.log(lo);
        double h = Math.log(hi);
        return Math.max(lo, Math.min(hi, Math.round(Math.exp(l + random.nextDouble() * (h - l)))));
    }

    <T> List<T> pick(List<T> from, int n) {
        List<T> copy = new ArrayList<>(from);
        java.util.Collections.shuffle(copy, random);
        return List.copyOf(copy.subList(0, Math.min(n, copy.size())));
    }
}
