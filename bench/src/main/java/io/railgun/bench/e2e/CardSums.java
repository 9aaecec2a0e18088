package io.railgun.bench.e2e;

import io.railgun.client.PointRead;
import io.railgun.client.RailgunClient;
import io.railgun.client.RailgunException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The injector's own oracle for an end-to-end check of the values: the exact sum (BigDecimal) of the
 * amounts of every payment generated for a few cards — the most active ones of the Zipf law,
 * {@code c0}, {@code c1}, ... — and the span of event time of all payments. When every payment got a
 * 200 that counted it and all of them fit in the window, a point read of SUM(amount) by card must
 * equal these sums ({@link #check}). Used by the thread that generates payments, then by the one that checks.
 */
final class CardSums {
    private final Map<String, BigDecimal> sums = new LinkedHashMap<>();
    private final Map<String, Long> counts = new LinkedHashMap<>();
    private long minTs = Long.MAX_VALUE;
    private long maxTs = Long.MIN_VALUE;

    CardSums(int cards) {
        for (int i = 0; i < cards; i++) {
            sums.put("c" + i, BigDecimal.ZERO);
            counts.put("c" + i, 0L);
        }
    }

    void add(String card, double amount, long ts) {
        minTs = Math.min(minTs, ts);
        maxTs = Math.max(maxTs, ts);
        BigDecimal sum = sums.get(card);
        if (sum != null) {
            sums.put(card, sum.add(new BigDecimal(amount)));
            counts.merge(card, 1L, Long::sum);
        }
    }

    /** Event time from the first to the last payment generated, in ms. */
    long spanMs() {
        return maxTs < minTs ? 0 : maxTs - minTs;
    }

    /** The latest event time generated, or {@code Long.MIN_VALUE} before any. */
    long maxTs() {
        return maxTs;
    }

    Map<String, BigDecimal> sums() {
        return sums;
    }

    long count(String card) {
        return counts.get(card);
    }

    /**
     * Reads SUM(amount) of the most active cards back from the node and compares it with the
     * injector's exact sums, when every event was answered 200 and counted once and all of them fit
     * in the window (else the comparison would need the node's window bounds, and says why it is skipped).
     */
    void check(RailgunClient client, String stream, E2eWorkload w, List<RunFigures> figures) {
        long notCounted = 0;
        long skipped = 0;
        for (RunFigures f : figures) {
            notCounted += f.errors() + f.tally().warmupErrors.sum() + f.tally().late.sum() + f.tally().duplicates.sum();
            skipped += f.warmupEvents() - f.warmupSent();
        }
        if (skipped > 0) {
            System.out.printf("values: not checked (%,d warm-up events were generated but not sent)%n", skipped);
            return;
        }
        if (notCounted > 0) {
            System.out.printf("values: not checked (%,d events were not answered 200 or not counted once)%n",
                    notCounted);
            return;
        }
        if (spanMs() >= w.windowMs()) {
            System.out.printf(Locale.ROOT, "values: not checked (the events span %.0f s of event time, more than the"
                    + " %d-minute window)%n", spanMs() / 1e3, w.windowMs() / 60_000);
            return;
        }
        int equal = 0;
        List<String> mismatches = new ArrayList<>();
        for (Map.Entry<String, BigDecimal> e : sums.entrySet()) {
            try {
                PointRead read = client.read(stream, w.sumMetric(), Map.of("card", e.getKey()));
                double expected = e.getValue().doubleValue();
                double got = read.value() instanceof Number n ? n.doubleValue() : Double.NaN;
                boolean same = count(e.getKey()) == 0 ? read.value() == null
                        : Math.abs(got - expected) <= 1e-9 * Math.abs(expected);
                if (same) {
                    equal++;
                } else {
                    mismatches.add(e.getKey() + ": node " + read.value() + ", injector " + expected + " ("
                            + count(e.getKey()) + " events)");
                }
            } catch (RailgunException ex) {
                mismatches.add(e.getKey() + ": " + ex.getMessage());
            }
        }
        if (mismatches.isEmpty()) {
            System.out.printf("values: %s of the %d busiest cards (%s) read back from the node equal the injector's"
                    + " exact sums%n", w.sumMetric(), equal, String.join(", ", sums.keySet()));
        } else {
            System.out.printf("values: %s of %d of the %d busiest cards DIFFER from the injector's exact sums: %s%n",
                    w.sumMetric(), mismatches.size(), sums.size(), mismatches);
        }
    }
}
