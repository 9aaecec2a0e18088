package io.railgun.bench.engine;

import io.railgun.bench.data.EventBatch;
import io.railgun.engine.event.EventRow;
import java.util.ArrayDeque;
import java.util.HashMap;

/**
 * The bar of BENCHMARKS.md: exact per-card SUM over a sliding window with a HashMap of ArrayDeque,
 * everything in heap, no durability, expiring lazily per card when that card is seen. Only for
 * P51/E1-shaped queries (sum and count of amount by card).
 */
final class NaiveBaseline {
    private record Entry(long ts, double amount) {}

    private static final class CardWindow {
        final ArrayDeque<Entry> events = new ArrayDeque<>();
        double sum;
    }

    private final HashMap<String, CardWindow> cards = new HashMap<>();
    private final long windowMs;
    double checksum;

    NaiveBaseline(long windowMs) {
        this.windowMs = windowMs;
    }

    void run(EventBatch batch, int from, int to) {
        EventRow row = new EventRow();
        for (int i = from; i < to; i++) {
            batch.wrap(row, i);
            long ts = row.getLong(1);
            String card = row.getString(2);
            double amount = row.getDouble(4);
            CardWindow w = cards.computeIfAbsent(card, c -> new CardWindow());
            w.events.addLast(new Entry(ts, amount));
            w.sum += amount;
            while (w.events.peekFirst().ts() <= ts - windowMs) {
                w.sum -= w.events.pollFirst().amount();
            }
            checksum += w.sum + w.events.size();
        }
    }
}
