package io.railgun.bench.faults;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Recomputes, by brute force and independently of the engine, the reply every event record of a
 * partition must get (docs/semantics.md): the partition is one task; records are taken in offset
 * order; an id already counted within the dedup horizon is a duplicate (not counted); an event more
 * than the lateness behind stream time is dropped; a counted event raises stream time {@code T}.
 * The sliding window holds the card's counted events with {@code T - W < t <= T}, the unbounded one
 * those with {@code t <= T}, each only from after its metric's marker. Every value is summed again
 * from the list of the card's events for every record: quadratic on purpose, nothing incremental to
 * get wrong in the same way as the engine. Not thread-safe; one instance per check.
 */
final class BruteForceOracle {
    private final long windowMs;
    private final long latenessMs;
    private final long horizonMs;
    private final String windowMetric;
    private final String allMetric;

    /**
     * @param windowMetric a metric of the sliding-window statement (its marker says when it starts)
     * @param allMetric    a metric of the unbounded statement
     */
    BruteForceOracle(long windowMs, long latenessMs, long horizonMs, String windowMetric, String allMetric) {
        this.windowMs = windowMs;
        this.latenessMs = latenessMs;
        this.horizonMs = horizonMs;
        this.windowMetric = windowMetric;
        this.allMetric = allMetric;
    }

    private record Counted(long offset, long ts, long amountQuarters) {}

    /** The expected reply of every event record of one partition, in offset order. */
    List<Expected> recompute(List<InputRecord> partition) {
        List<Expected> out = new ArrayList<>();
        long streamTime = Long.MIN_VALUE;
        boolean anyCounted = false;
        Map<String, Long> countedIds = new HashMap<>();
        Map<String, List<Counted>> byCard = new HashMap<>();
        long windowFrom = Long.MAX_VALUE;
        long allFrom = Long.MAX_VALUE;
        for (InputRecord r : partition) {
            if (r.kind() == InputRecord.Kind.STATEMENT) {
                if (r.metrics().contains(windowMetric)) {
                    windowFrom = Math.min(windowFrom, r.offset());
                }
                if (r.metrics().contains(allMetric)) {
                    allFrom = Math.min(allFrom, r.offset());
                }
                continue;
            }
            if (r.kind() != InputRecord.Kind.EVENT) {
                continue;
            }
            Long seenTs = countedIds.get(r.id());
            boolean duplicate = seenTs != null && seenTs >= streamTime - horizonMs;
            boolean late = !duplicate && anyCounted && r.ts() < streamTime - latenessMs;
            List<Counted> card = byCard.computeIfAbsent(r.card(), c -> new ArrayList<>());
            if (!duplicate && !late) {
                streamTime = anyCounted ? Math.max(streamTime, r.ts()) : r.ts();
                anyCounted = true;
                countedIds.put(r.id(), r.ts());
                card.add(new Counted(r.offset(), r.ts(), r.amountQuarters()));
            }
            long sum = 0;
            long count = 0;
            long countAll = 0;
            for (Counted c : card) {
                if (c.offset() > windowFrom && c.ts() > streamTime - windowMs && c.ts() <= streamTime) {
                    sum += c.amountQuarters();
                    count++;
                }
                if (c.offset() > allFrom && c.ts() <= streamTime) {
                    countAll++;
                }
            }
            out.add(new Expected(r, duplicate, late, count == 0 ? null : sum, count, countAll,
                    r.offset() < windowFrom, r.offset() < allFrom));
        }
        return out;
    }
}
