package io.railgun.engine.oracle;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts what an exactness run actually compared, so a test can assert that every aggregate and
 * every window kind was exercised with non-trivial values (non-null, windows holding several
 * events, windows that had expired events). Thread-safe (synchronized).
 */
public final class Coverage {
    private long cases;
    private long events;
    private long compared;
    private long reads;
    private long duplicates;
    private long dropped;
    private long rewritten;
    private long lenientPasses;
    private long inexactSelections;
    private final Map<AggregateKind, long[]> byKind = new EnumMap<>(AggregateKind.class);
    private final Map<String, long[]> byWindow = new TreeMap<>();

    private static final int COMPARED = 0;
    private static final int NON_NULL = 1;
    private static final int MULTI = 2;
    private static final int EXPIRED = 3;

    public synchronized void caseDone(int eventCount) {
        cases++;
        events += eventCount;
    }

    public synchronized void reply(OracleReply reply) {
        duplicates += reply.duplicate() ? 1 : 0;
        dropped += reply.droppedLate() ? 1 : 0;
        rewritten += reply.tasks().stream().anyMatch(t -> t.status() == TaskStatus.REWRITTEN) ? 1 : 0;
    }

    public synchronized void value(ExpectedValue e, String windowLabel, Object actual, boolean read) {
        compared++;
        reads += read ? 1 : 0;
        long[] k = byKind.computeIfAbsent(e.kind(), x -> new long[4]);
        long[] w = byWindow.computeIfAbsent(windowLabel, x -> new long[4]);
        boolean nonNull = e.value() != null && !(e.value() instanceof Long l && l == 0 && e.kind().name().startsWith("COUNT"));
        for (long[] c : List.of(k, w)) {
            c[COMPARED]++;
            c[NON_NULL] += nonNull ? 1 : 0;
            c[MULTI] += nonNull && e.inputs() >= 2 ? 1 : 0;
            c[EXPIRED] += nonNull && e.expiredEvents() > 0 ? 1 : 0;
        }
        if (Tolerance.check(e, actual) == null && !Tolerance.strictlyEqual(e, actual)) {
            lenientPasses++;
        }
        if (e.value() instanceof Double d && actual instanceof Double a && d.doubleValue() != a.doubleValue()
                && (e.kind() == AggregateKind.MIN || e.kind() == AggregateKind.MAX || e.kind() == AggregateKind.LAST)) {
            inexactSelections++;
        }
    }

    public synchronized long cases() {
        return cases;
    }

    public synchronized long compared() {
        return compared;
    }

    /** Aggregates or window kinds (by label) that never had a non-null value from ≥ 2 inputs with expired events around. */
    public synchronized List<String> gaps() {
        List<String> gaps = new ArrayList<>();
        for (AggregateKind kind : AggregateKind.values()) {
            long[] c = byKind.get(kind);
            if (c == null || c[MULTI] == 0 || c[EXPIRED] == 0) {
                gaps.add("aggregate " + kind);
            }
        }
        for (String label : List.of("SLIDING", "DELAYED", "TUMBLING", "UNBOUNDED")) {
            long[] c = byWindow.get(label);
            if (c == null || c[MULTI] == 0 || (!label.equals("UNBOUNDED") && c[EXPIRED] == 0)) {
                gaps.add("window " + label);
            }
        }
        return gaps;
    }

    public synchronized String report() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("cases=%d events=%d compared values=%d (point reads %d); replies duplicate=%d dropped=%d rewritten=%d;"
                        + " passed only by the conditioning bound (not 1e-9 relative)=%d; MIN/MAX/LAST doubles not bit-exact=%d%n",
                cases, events, compared, reads, duplicates, dropped, rewritten, lenientPasses, inexactSelections));
        sb.append(String.format("  %-16s %10s %10s %10s %10s%n", "", "compared", "non-null", ">=2 inputs", "w/ expired"));
        byKind.forEach((k, c) -> sb.append(String.format("  %-16s %10d %10d %10d %10d%n", k, c[0], c[1], c[2], c[3])));
        byWindow.forEach((k, c) -> sb.append(String.format("  %-16s %10d %10d %10d %10d%n", k, c[0], c[1], c[2], c[3])));
        return sb.toString();
    }
}
