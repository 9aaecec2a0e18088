package io.railgun.bench.data;

import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The seeded, deterministic generator of card payments of BENCHMARKS.md: unique {@code id}, event
 * time {@code ts} at a simulated rate (exponential gaps), Zipf-skewed {@code card} and
 * {@code merchant}, log-normal {@code amount} in cents precision, a mostly-stable {@code country}
 * per card, {@code online}, {@code mcc}. Options: out-of-order fraction and bound, duplicate
 * fraction. The same seed gives the same events to every engine and to the oracle.
 */
public final class PaymentGenerator {
    public static final String[] COUNTRIES = {
        "PT", "ES", "FR", "DE", "IT", "GB", "IE", "NL", "BE", "LU", "CH", "AT", "PL", "CZ", "SK", "HU", "RO", "BG",
        "GR", "HR", "SI", "DK", "SE", "NO", "FI", "EE", "LV", "LT", "US", "CA", "MX", "BR", "AR", "CL", "CO", "PE",
        "JP", "KR", "CN", "IN", "SG", "AU", "NZ", "ZA", "EG", "MA", "TR", "IL", "AE", "SA"
    };

    /** Generation settings. */
    public record Options(long seed, int cards, int merchants, double eventsPerSecond, long startMs,
                          double outOfOrderFraction, long outOfOrderBoundMs, double duplicateFraction) {
        public static Options defaults() {
            return new Options(42, 1_000_000, 50_000, 500, 1_700_000_000_000L, 0, 0, 0);
        }

        public Options withCards(int n) {
            return new Options(seed, n, merchants, eventsPerSecond, startMs, outOfOrderFraction, outOfOrderBoundMs, duplicateFraction);
        }

        public Options withSeed(long newSeed) {
            return new Options(newSeed, cards, merchants, eventsPerSecond, startMs, outOfOrderFraction, outOfOrderBoundMs, duplicateFraction);
        }

        public Options withRate(double evPerSec) {
            return new Options(seed, cards, merchants, evPerSec, startMs, outOfOrderFraction, outOfOrderBoundMs, duplicateFraction);
        }
    }

    public static final Map<String, FieldType> FIELDS;

    static {
        Map<String, FieldType> f = new LinkedHashMap<>();
        f.put("id", FieldType.STRING);
        f.put("ts", FieldType.TIMESTAMP);
        f.put("card", FieldType.STRING);
        f.put("merchant", FieldType.STRING);
        f.put("amount", FieldType.DOUBLE);
        f.put("country", FieldType.STRING);
        f.put("online", FieldType.BOOLEAN);
        f.put("mcc", FieldType.LONG);
        FIELDS = f;
    }

    private final Options options;
    private final Schema schema;
    private final SplittableRandom random;
    private final ZipfSampler cardSampler;
    private final ZipfSampler merchantSampler;
    private final StringBuilder text = new StringBuilder(32);
    private long clockMs;
    /** The part of a millisecond the simulated clock has moved beyond {@code clockMs}. */
    private double clockFractionMs;
    private long counter;
    private long lastId = -1;

    public PaymentGenerator(Options options) {
        this.options = options;
        this.schema = Schema.of(FIELDS);
        this.random = new SplittableRandom(options.seed());
        this.cardSampler = new ZipfSampler(options.cards(), 0.8);
        this.merchantSampler = new ZipfSampler(options.merchants(), 1.0);
        this.clockMs = options.startMs();
    }

    public Schema schema() {
        return schema;
    }

    /** The payments stream: partitioned by card and merchant. */
    public StreamDefinition stream(String name, int partitions, List<String> partitioners) {
        return new StreamDefinition(name, schema, "id", "ts", partitioners, partitions, 0, LateEventPolicy.DROP);
    }

    /** Writes the next payment into {@code w} (begin .. finish). */
    public void next(EventRowWriter w) {
        // the gaps are summed exactly and the clock read in whole milliseconds: rounding each gap (as
        // before) lost every gap under half a millisecond, so above ~2,000 ev/s event time crawled
        // (at 20,000 ev/s 36 ms of event time in 40 s: no event ever passed the watermark)
        clockFractionMs += -Math.log(1 - random.nextDouble()) * 1000.0 / options.eventsPerSecond();
        long wholeMs = (long) clockFractionMs;
        clockMs += wholeMs;
        clockFractionMs -= wholeMs;
        long ts = clockMs;
        if (options.outOfOrderFraction() > 0 && random.nextDouble() < options.outOfOrderFraction()) {
            ts -= random.nextLong(options.outOfOrderBoundMs() + 1);
        }
        long id;
        if (lastId >= 0 && options.duplicateFraction() > 0 && random.nextDouble() < options.duplicateFraction()) {
            id = lastId;
        } else {
            id = counter++;
        }
        lastId = id;
        int card = cardSampler.next(random);
        w.begin(schema);
        w.setString(0, format("e", id));
        w.setLong(1, ts);
        w.setString(2, format("c", card));
        w.setString(3, format("m", merchantSampler.next(random)));
        double amount = Math.round(Math.exp(3.5 + 1.2 * random.nextGaussian()) * 100) / 100.0;
        w.setDouble(4, amount);
        // a card mostly stays in its home country
        int country = random.nextDouble() < 0.95 ? card % COUNTRIES.length : random.nextInt(COUNTRIES.length);
        w.setString(5, COUNTRIES[country]);
        w.setBoolean(6, random.nextDouble() < 0.3);
        w.setLong(7, 5000 + random.nextInt(100));
        w.finish();
    }

    private CharSequence format(String prefix, long n) {
        text.setLength(0);
        return text.append(prefix).append(n);
    }
}
