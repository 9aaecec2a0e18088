package io.railgun.engine.oracle;

import io.railgun.engine.event.EventTime;
import io.railgun.engine.schema.FieldType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The events of a generated payment case: timestamps that advance by gaps on several scales (0,
 * 1 ms, the case's scale, up to hundreds of days), out-of-order events within and beyond the
 * lateness, events exactly on window boundaries, exact re-sends of recent and old events; field
 * values from the case's key domains with per-field null rates; amounts partly from a small pool
 * so equal values and zero-variance windows occur. Package-private part of {@link PaymentCaseGenerator}.
 */
final class EventGenerator {
    enum AmountProfile { CENTS, INTEGRAL, WIDE }

    private final GenContext g;
    private final List<WindowDef> windows;
    private final long lateness;
    private final Map<String, Double> nullRates = new LinkedHashMap<>();
    private final AmountProfile amountProfile;
    private final List<Double> amountPool = new ArrayList<>();
    private final List<Double> balancePool = new ArrayList<>();

    /**
     * @param windows  the bounded windows of the case's statements (for boundary timestamps)
     * @param lateness the stream's lateness
     * @param extreme  amounts over 1e-3 .. 1e12 instead of payment-like ones
     */
    EventGenerator(GenContext g, List<WindowDef> windows, long lateness, boolean extreme) {
        this.g = g;
        this.windows = windows;
        this.lateness = lateness;
        for (String f : g.fields.keySet()) {
            if (f.equals("id") || f.equals("ts")) {
                continue;
            }
            boolean key = f.equals("card") || f.equals("merchant");
            nullRates.put(f, key ? g.oneOf(0.0, 0.0, 0.0, 0.03, 0.1) : g.oneOf(0.0, 0.0, 0.05, 0.2, 0.5));
        }
        amountProfile = extreme ? AmountProfile.WIDE : g.oneOf(AmountProfile.CENTS, AmountProfile.INTEGRAL);
        for (int i = g.between(1, 3); i > 0; i--) {
            amountPool.add(amount());
        }
        for (int i = g.between(1, 3); i > 0; i--) {
            balancePool.add(cents(-100, 100));
        }
    }

    AmountProfile amountProfile() {
        return amountProfile;
    }

    double amount() {
        return switch (amountProfile) {
            case CENTS -> cents(0, 500);
            case INTEGRAL -> (double) g.between(1, 20);
            case WIDE -> Math.exp(Math.log(1e-3) + g.random.nextDouble() * (Math.log(1e12) - Math.log(1e-3)));
        };
    }

    double cents(int lo, int hi) {
        return g.between(lo * 100L, hi * 100L) / 100.0;
    }

    /** {@code n} events in sending order; a re-send is the same map object as its original. */
    List<Map<String, Object>> events(int n) {
        double pDup = g.oneOf(0.03, 0.08, 0.15);
        double pLate = g.oneOf(0.05, 0.12, 0.25);
        List<Map<String, Object>> events = new ArrayList<>();
        long frontier = g.timeOrigin;
        long idCounter = 0;
        for (int i = 0; i < n; i++) {
            if (i > 0 && g.chance(pDup)) {
                int from = g.chance(0.7) ? Math.max(0, i - 5) : 0;
                events.add(events.get(g.between(from, i - 1)));
                continue;
            }
            long ts = timestamp(events, frontier, pLate);
            frontier = Math.max(frontier, ts);
            Map<String, Object> e = new LinkedHashMap<>();
            for (Map.Entry<String, FieldType> f : g.fields.entrySet()) {
                e.put(f.getKey(), value(f.getKey(), f.getValue(), idCounter, ts));
            }
            idCounter++;
            events.add(Collections.unmodifiableMap(e));
        }
        return events;
    }

    /** The next timestamp, within the accepted range of event times (cases near its ends pile up there). */
    long timestamp(List<Map<String, Object>> events, long frontier, double pLate) {
        return Math.max(EventTime.MIN_MS, Math.min(EventTime.MAX_MS, unclamped(events, frontier, pLate)));
    }

    private long unclamped(List<Map<String, Object>> events, long frontier, double pLate) {
        double u = g.random.nextDouble();
        long typicalWindow = windows.isEmpty() ? g.scaleMs : g.oneOf(windows).sizeMs();
        if (u < pLate && !events.isEmpty()) {
            double v = g.random.nextDouble();
            long delta;
            if (v < 0.4) {
                delta = g.between(0L, lateness);
            } else if (v < 0.55) {
                delta = lateness;
            } else if (v < 0.7) {
                delta = lateness + 1;
            } else {
                delta = lateness + g.between(1L, 3 * Math.max(g.scaleMs, Math.min(typicalWindow, 50 * g.scaleMs)));
            }
            return frontier - delta;
        }
        if (u < pLate + 0.10 && !windows.isEmpty() && !events.isEmpty()) {
            WindowDef w = g.oneOf(windows);
            Map<String, Object> ref = events.get(g.between(Math.max(0, events.size() - 8), events.size() - 1));
            long r = (Long) ref.get("ts");
            return switch (g.random.nextInt(6)) {
                case 0 -> r + w.sizeMs();
                case 1 -> r + w.sizeMs() + w.delayMs();
                case 2 -> r + w.sizeMs() - 1;
                case 3 -> r + w.sizeMs() + 1;
                case 4 -> (Math.floorDiv(frontier, w.sizeMs()) + 1) * w.sizeMs();
                default -> (Math.floorDiv(frontier, w.sizeMs()) + 1) * w.sizeMs() - 1;
            };
        }
        double v = g.random.nextDouble();
        long gap;
        if (v < 0.10) {
            gap = 0;
        } else if (v < 0.15) {
            gap = 1;
        } else if (v < 0.65) {
            gap = Math.round(-Math.log(1 - g.random.nextDouble()) * g.scaleMs);
        } else if (v < 0.85) {
            gap = g.logUniform(1, 10 * Durations.DAY);
        } else if (v < 0.90) {
            gap = g.logUniform(Durations.DAY, 300 * Durations.DAY);
        } else {
            gap = typicalWindow;
        }
        return frontier + gap;
    }

    Object value(String field, FieldType type, long idCounter, long ts) {
        if (field.equals("id")) {
            return type == FieldType.STRING ? "e" + idCounter : idCounter * 10 + 7;
        }
        if (field.equals("ts")) {
            return ts;
        }
        if (g.chance(nullRates.get(field))) {
            return null;
        }
        return switch (field) {
            case "card" -> skewed(g.cards);
            case "merchant" -> skewed(g.merchants);
            case "country" -> skewed(g.countries);
            case "amount" -> g.chance(0.35) ? g.oneOf(amountPool) : amount();
            case "balance" -> {
                double u = g.random.nextDouble();
                yield u < 0.1 ? 0.0 : u < 0.15 ? -0.0 : u < 0.45 ? g.oneOf(balancePool) : cents(-100, 100);
            }
            case "qty" -> g.oneOf(0L, 1L, 1L, 2L, 3L, 5L, 100L, -3L);
            case "online" -> g.chance(0.5);
            case "mcc" -> skewed(g.mccs);
            case "points" -> {
                // loyalty points: mostly small, sometimes near +-2^62, so SUM wraps around and an
                // AVG accumulated in a long would overflow
                long big = (1L << 62) - g.between(0L, 1000L);
                yield g.chance(0.6) ? (Object) g.between(-5L, 50L) : (Object) (g.chance(0.7) ? big : -big);
            }
            default -> throw new IllegalArgumentException(field);
        };
    }

    Object domainValue(String field, Map<String, Object> source) {
        return switch (field) {
            case "card" -> g.oneOf(g.cards);
            case "merchant" -> g.oneOf(g.merchants);
            case "country" -> g.oneOf(g.countries);
            case "online" -> (Object) g.chance(0.5);
            case "mcc" -> g.oneOf(g.mccs);
            default -> source.get(field);
        };
    }

    <T> T skewed(List<T> domain) {
        return domain.get(Math.min(g.random.nextInt(domain.size()), g.random.nextInt(domain.size())));
    }
}
