package io.railgun.engine.oracle;

import io.railgun.engine.event.EventTime;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Generates random payment-stream {@link StreamCase}s from a seed (same seed, same case):
 *
 * <ul>
 *   <li>schema: id (string or long), ts (timestamp or long), card, merchant, amount, and some of
 *       qty, country, online, mcc, balance, points (longs up to ±2^62), in random order; nulls in every other field at a rate
 *       drawn per field; small key domains (1–6 cards, 1–4 merchants) with skew, Unicode values
 *       outside the BMP, an empty string;
 *   <li>partitioners a non-empty subset of {card, merchant} in random order, 1–3 partitions,
 *       lateness 0 to a few windows, drop or rewrite, a dedup horizon from 0 to an hour;
 *   <li>statements from {@link StatementGenerator};
 *   <li>events whose timestamps advance by gaps on several scales (0, 1 ms, the case's scale,
 *       up to hundreds of days), with out-of-order events within and beyond the lateness, events
 *       exactly on window boundaries, exact re-sends of recent and old events, and amounts drawn
 *       from a small pool so equal values and zero-variance windows occur.
 * </ul>
 */
public final class PaymentCaseGenerator {
    private static final long[] SCALES = {
        1, 10, 100, Durations.SECOND, 10 * Durations.SECOND, Durations.MINUTE, 10 * Durations.MINUTE, Durations.HOUR,
        6 * Durations.HOUR, Durations.DAY, 3 * Durations.DAY, 10 * Durations.DAY};

    /**
     * Which magnitudes the numbers have. PAYMENT: amounts in cents up to 500 or whole numbers, no
     * huge longs. EXTREME: amounts log-uniform over 1e-3 .. 1e12 and a {@code points} field with
     * values near ±2^62, so rounding residue and overflow show. MIXED: either, per case.
     */
    public enum Magnitudes { PAYMENT, EXTREME, MIXED }

    /**
     * @param minEvents       fewest events per case
     * @param maxEvents       most events per case
     * @param minStatements   fewest statements
     * @param maxStatements   most statements
     * @param removals        remove 1–2 metrics midway
     * @param readsPerMetric  point reads per remaining metric after the last event
     * @param magnitudes      number magnitudes
     */
    public record Settings(
            int minEvents, int maxEvents, int minStatements, int maxStatements, boolean removals, int readsPerMetric, Magnitudes magnitudes) {
        public static Settings defaults() {
            return new Settings(50, 400, 1, 4, false, 0, Magnitudes.MIXED);
        }

        public Settings withRemovals(boolean r) {
            return new Settings(minEvents, maxEvents, minStatements, maxStatements, r, readsPerMetric, magnitudes);
        }

        public Settings withReads(int n) {
            return new Settings(minEvents, maxEvents, minStatements, maxStatements, removals, n, magnitudes);
        }

        public Settings withEvents(int min, int max) {
            return new Settings(min, max, minStatements, maxStatements, removals, readsPerMetric, magnitudes);
        }

        public Settings withMagnitudes(Magnitudes m) {
            return new Settings(minEvents, maxEvents, minStatements, maxStatements, removals, readsPerMetric, m);
        }
    }

    private PaymentCaseGenerator() {}

    public static StreamCase generate(long seed, Settings settings) {
        return new Builder(seed, settings).build();
    }

    private static final class Builder {
        final long seed;
        final Settings settings;
        final Random random;
        GenContext g;
        List<WindowDef> windows;
        long lateness;

        final boolean extreme;

        Builder(long seed, Settings settings) {
            this.seed = seed;
            this.settings = settings;
            this.random = new Random(seed);
            this.extreme = switch (settings.magnitudes()) {
                case PAYMENT -> false;
                case EXTREME -> true;
                case MIXED -> random.nextDouble() < 0.3;
            };
        }

        StreamCase build() {
            LinkedHashMap<String, FieldType> fields = schemaFields();
            List<String> partitioners = new ArrayList<>();
            double p = random.nextDouble();
            if (p < 0.4) {
                partitioners.add("card");
            } else if (p < 0.6) {
                partitioners.add("merchant");
            } else {
                partitioners.add("card");
                partitioners.add("merchant");
                Collections.shuffle(partitioners, random);
            }
            long scale = SCALES[random.nextInt(SCALES.length)];
            // a few cases straddle the epoch, so negative timestamps and floor division get exercised
            // and a few start at either end of the accepted range (EventTime), where timestamps are clamped
            double o = random.nextDouble();
            long origin = o < 0.1
                    ? random.nextInt(2 * 86_400_000) - 86_400_000L
                    : o < 0.13 ? EventTime.MIN_MS + random.nextInt(86_400_000)
                    : o < 0.16 ? EventTime.MAX_MS - random.nextInt(86_400_000) - (random.nextBoolean() ? 0 : 400 * 86_400_000L)
                    : 1_700_000_000_000L + random.nextInt(86_400_000);
            g = new GenContext(random, fields, List.copyOf(partitioners), origin, scale);

            StatementGenerator sg = new StatementGenerator(g);
            List<MetricQuery> statements = new ArrayList<>();
            int ns = g.between(settings.minStatements(), settings.maxStatements());
            for (int i = 0; i < ns; i++) {
                statements.add(sg.next(i));
            }
            windows = statements.stream().map(MetricQuery::window).filter(w -> w.kind() != WindowDef.Kind.UNBOUNDED).toList();

            double l = random.nextDouble();
            if (l < 0.3) {
                lateness = 0;
            } else if (l < 0.45) {
                lateness = g.between(1L, 10L);
            } else if (l < 0.75 || windows.isEmpty()) {
                lateness = Math.round(scale * random.nextDouble() * 5);
            } else {
                lateness = Math.max(1, Math.round(g.oneOf(windows).sizeMs() * g.oneOf(0.5, 1.0, 2.0, 3.0)));
            }
            LateEventPolicy policy = g.chance(0.5) ? LateEventPolicy.DROP : LateEventPolicy.REWRITE;
            int partitions = g.between(1, 3);
            double d = random.nextDouble();
            long minDedup = d < 0.35 ? 0 : d < 0.5 ? g.between(1L, 1000L) : d < 0.75 ? Math.round(scale * random.nextDouble() * 20) : 3_600_000L;

            StreamDefinition def = new StreamDefinition("payments", Schema.of(fields), "id", "ts", partitioners, partitions, lateness, policy);

            EventGenerator eventGenerator = new EventGenerator(g, windows, lateness, extreme);
            List<Map<String, Object>> events = eventGenerator.events(g.between(settings.minEvents(), settings.maxEvents()));
            List<StreamCase.Removal> removals = settings.removals() ? removals(statements, events.size()) : List.of();
            List<StreamCase.Read> reads = reads(statements, removals, events, eventGenerator);
            String profile = String.format("scale=%s magnitudes=%s amounts=%s partitioners=%s partitions=%d lateness=%s %s minDedup=%s",
                    Durations.show(scale), extreme ? "EXTREME" : "PAYMENT", eventGenerator.amountProfile(), partitioners, partitions, Durations.show(lateness), policy, Durations.show(minDedup));
            return new StreamCase(seed, def, minDedup, statements, events, removals, reads, origin, profile);
        }

        LinkedHashMap<String, FieldType> schemaFields() {
            List<Map.Entry<String, FieldType>> list = new ArrayList<>();
            list.add(Map.entry("id", random.nextDouble() < 0.75 ? FieldType.STRING : FieldType.LONG));
            list.add(Map.entry("ts", random.nextDouble() < 0.85 ? FieldType.TIMESTAMP : FieldType.LONG));
            list.add(Map.entry("card", FieldType.STRING));
            list.add(Map.entry("merchant", FieldType.STRING));
            list.add(Map.entry("amount", FieldType.DOUBLE));
            addMaybe(list, "qty", FieldType.LONG, 0.8);
            addMaybe(list, "country", FieldType.STRING, 0.8);
            addMaybe(list, "online", FieldType.BOOLEAN, 0.75);
            addMaybe(list, "mcc", FieldType.LONG, 0.7);
            addMaybe(list, "balance", FieldType.DOUBLE, 0.5);
            if (extreme) {
                addMaybe(list, "points", FieldType.LONG, 0.6);
            }
            Collections.shuffle(list, random);
            LinkedHashMap<String, FieldType> fields = new LinkedHashMap<>();
            for (Map.Entry<String, FieldType> e : list) {
                fields.put(e.getKey(), e.getValue());
            }
            return fields;
        }

        void addMaybe(List<Map.Entry<String, FieldType>> list, String name, FieldType type, double p) {
            if (random.nextDouble() < p) {
                list.add(Map.entry(name, type));
            }
        }

        List<StreamCase.Removal> removals(List<MetricQuery> statements, int events) {
            List<String> names = new ArrayList<>();
            statements.forEach(s -> s.aggregates().forEach(a -> names.add(a.alias())));
            Collections.shuffle(names, random);
            int k = Math.min(names.size(), g.between(1, 2));
            List<StreamCase.Removal> out = new ArrayList<>();
            for (int i = 0; i < k; i++) {
                out.add(new StreamCase.Removal(g.between(events / 4, 3 * events / 4), names.get(i)));
            }
            out.sort((a, b) -> Integer.compare(a.beforeEvent(), b.beforeEvent()));
            return out;
        }

        List<StreamCase.Read> reads(List<MetricQuery> statements, List<StreamCase.Removal> removals, List<Map<String, Object>> events,
                EventGenerator eventGenerator) {
            Set<String> removed = new HashSet<>();
            removals.forEach(r -> removed.add(r.metric()));
            List<StreamCase.Read> reads = new ArrayList<>();
            for (MetricQuery s : statements) {
                for (AggregateSpec a : s.aggregates()) {
                    if (removed.contains(a.alias())) {
                        continue;
                    }
                    for (int i = 0; i < settings.readsPerMetric(); i++) {
                        Map<String, Object> source = g.oneOf(events);
                        double u = random.nextDouble();
                        Map<String, Object> row = new LinkedHashMap<>();
                        if (u < 0.4) {
                            row.putAll(source);
                        } else if (u < 0.75) {
                            for (String f : s.groupBy()) {
                                row.put(f, source.get(f));
                            }
                        } else {
                            for (String f : s.groupBy()) {
                                row.put(f, g.chance(0.1) ? null : eventGenerator.domainValue(f, source));
                            }
                        }
                        reads.add(new StreamCase.Read(a.alias(), Collections.unmodifiableMap(row)));
                    }
                }
            }
            return reads;
        }
    }
}
