package io.railgun.engine.oracle;

import io.railgun.engine.schema.StreamDefinition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Shrinks a failing {@link StreamCase} greedily while its first mismatch keeps the same category:
 * drops events after the failure, statements, aggregates, filters (or parts of them), group-by
 * fields, removals, reads, then chunks of events (delta debugging), and simplifies the stream
 * (one partition, one partitioner, no lateness, no minimum dedup horizon). Bounded by a number of
 * runs and a time budget.
 */
public final class CaseMinimizer {
    private final ExactnessRunner runner;
    private final int maxRuns;
    private final long deadlineNs;
    private int runs;
    private String category;

    public CaseMinimizer(ExactnessRunner runner, int maxRuns, long budgetMs) {
        this.runner = runner;
        this.maxRuns = maxRuns;
        this.deadlineNs = System.nanoTime() + budgetMs * 1_000_000;
    }

    /** The shrunk case and its run result. {@code failing} must fail with {@code result}. */
    public record Minimized(StreamCase minimal, ExactnessRunner.Result result, int runs) {}

    public Minimized minimize(StreamCase failing, ExactnessRunner.Result result) {
        category = result.first().category();
        StreamCase cur = truncate(failing, result);
        ExactnessRunner.Result curResult = result;
        boolean progress = true;
        while (progress && budgetLeft()) {
            progress = false;
            for (StreamCase candidate : candidates(cur)) {
                if (!budgetLeft()) {
                    break;
                }
                ExactnessRunner.Result r = attempt(candidate);
                if (r != null) {
                    cur = truncate(candidate, r);
                    curResult = r;
                    progress = true;
                    break;
                }
            }
            if (!progress && budgetLeft()) {
                StreamCase shorter = dropEventChunks(cur);
                if (shorter != cur) {
                    cur = shorter;
                    curResult = runner.run(cur);
                    cur = truncate(cur, curResult);
                    progress = true;
                }
            }
        }
        ExactnessRunner.Result finalResult = runner.run(cur);
        if (finalResult.exact() || !finalResult.first().category().equals(category)) {
            finalResult = curResult; // should not happen (engine not deterministic?)
        }
        return new Minimized(cur.withEvents(cur.events()), finalResult, runs);
    }

    private boolean budgetLeft() {
        return runs < maxRuns && System.nanoTime() < deadlineNs;
    }

    /** The run result when the candidate still fails the same way, else null. */
    private ExactnessRunner.Result attempt(StreamCase candidate) {
        runs++;
        try {
            ExactnessRunner.Result r = runner.run(candidate);
            return !r.exact() && r.first().category().equals(category) ? r : null;
        } catch (RuntimeException | AssertionError e) {
            return null; // an invalid candidate (the oracle refused it)
        }
    }

    private static StreamCase truncate(StreamCase c, ExactnessRunner.Result r) {
        int at = r.first().eventIndex();
        if (at >= 0 && at < c.events().size()) {
            List<StreamCase.Removal> removals = c.removals().stream().filter(x -> x.beforeEvent() <= at).toList();
            return c.withEvents(c.events().subList(0, at + 1)).withRemovals(removals).withReads(List.of());
        }
        return c;
    }

    private List<StreamCase> candidates(StreamCase c) {
        List<StreamCase> out = new ArrayList<>();
        for (int i = c.reads().size() - 1; i >= 0; i--) {
            List<StreamCase.Read> reads = new ArrayList<>(c.reads());
            reads.remove(i);
            out.add(c.withReads(reads));
        }
        for (int i = 0; i < c.removals().size(); i++) {
            List<StreamCase.Removal> removals = new ArrayList<>(c.removals());
            removals.remove(i);
            out.add(c.withRemovals(removals));
        }
        for (int s = 0; s < c.statements().size(); s++) {
            final int si = s;
            if (c.statements().size() > 1) {
                List<MetricQuery> statements = new ArrayList<>(c.statements());
                MetricQuery removed = statements.remove(s);
                out.add(withoutMetrics(c.withStatements(statements), aliases(removed)));
            }
            MetricQuery q = c.statements().get(s);
            if (q.aggregates().size() > 1) {
                for (int a = 0; a < q.aggregates().size(); a++) {
                    List<AggregateSpec> aggs = new ArrayList<>(q.aggregates());
                    AggregateSpec removed = aggs.remove(a);
                    out.add(withoutMetrics(replace(c, si, q.withAggregates(aggs)), Set.of(removed.alias())));
                }
            }
            if (q.where() != null) {
                out.add(replace(c, si, q.withWhere(null)));
                for (SqlExpr sub : children(q.where())) {
                    if (isPredicate(sub)) {
                        out.add(replace(c, si, q.withWhere(sub)));
                    }
                }
            }
            for (int a = 0; a < q.aggregates().size(); a++) {
                AggregateSpec spec = q.aggregates().get(a);
                if (spec.argument() != null) {
                    for (SqlExpr sub : children(spec.argument())) {
                        if (!isPredicate(sub) || isPredicate(spec.argument())) {
                            List<AggregateSpec> aggs = new ArrayList<>(q.aggregates());
                            aggs.set(a, new AggregateSpec(spec.kind(), sub, spec.alias()));
                            out.add(replace(c, si, q.withAggregates(aggs)));
                        }
                    }
                }
            }
            if (q.groupBy().size() > 1) {
                for (int gi = 0; gi < q.groupBy().size(); gi++) {
                    List<String> groupBy = new ArrayList<>(q.groupBy());
                    groupBy.remove(gi);
                    if (groupBy.stream().anyMatch(g -> c.definition().partitioners().contains(g))) {
                        out.add(replace(c, si, q.withGroupBy(groupBy)));
                    }
                }
            }
        }
        StreamDefinition d = c.definition();
        if (d.partitions() > 1) {
            out.add(c.withDefinition(new StreamDefinition(d.name(), d.schema(), d.eventIdField(), d.timestampField(), d.partitioners(), 1,
                    d.latenessMs(), d.lateEvents())));
        }
        if (d.partitioners().size() > 1) {
            for (String p : d.partitioners()) {
                List<String> fewer = new ArrayList<>(d.partitioners());
                fewer.remove(p);
                boolean allRoutable = c.statements().stream().allMatch(q -> q.groupBy().stream().anyMatch(fewer::contains));
                if (allRoutable) {
                    out.add(c.withDefinition(new StreamDefinition(d.name(), d.schema(), d.eventIdField(), d.timestampField(), fewer,
                            d.partitions(), d.latenessMs(), d.lateEvents())));
                }
            }
        }
        if (d.latenessMs() > 0) {
            out.add(c.withDefinition(new StreamDefinition(d.name(), d.schema(), d.eventIdField(), d.timestampField(), d.partitioners(),
                    d.partitions(), 0, d.lateEvents())));
        }
        if (c.minDedupHorizonMs() > 0) {
            out.add(c.withMinDedupHorizonMs(0));
        }
        return out;
    }

    private StreamCase dropEventChunks(StreamCase c) {
        StreamCase cur = c;
        for (int chunk = Math.max(1, cur.events().size() / 2); chunk >= 1 && budgetLeft(); chunk /= 2) {
            int i = 0;
            while (i < cur.events().size() && budgetLeft()) {
                StreamCase candidate = removeEvents(cur, i, Math.min(cur.events().size(), i + chunk));
                ExactnessRunner.Result r = candidate.events().isEmpty() ? null : attempt(candidate);
                if (r != null) {
                    cur = truncate(candidate, r);
                } else {
                    i += chunk;
                }
            }
            if (chunk == 1) {
                break;
            }
        }
        return cur;
    }

    private static StreamCase removeEvents(StreamCase c, int from, int to) {
        List<Map<String, Object>> events = new ArrayList<>(c.events());
        events.subList(from, to).clear();
        List<StreamCase.Removal> removals = new ArrayList<>();
        for (StreamCase.Removal r : c.removals()) {
            int at = r.beforeEvent() < from ? r.beforeEvent() : r.beforeEvent() < to ? from : r.beforeEvent() - (to - from);
            removals.add(new StreamCase.Removal(at, r.metric()));
        }
        return c.withEvents(events).withRemovals(removals);
    }

    private static StreamCase replace(StreamCase c, int index, MetricQuery q) {
        List<MetricQuery> statements = new ArrayList<>(c.statements());
        statements.set(index, q);
        return c.withStatements(statements);
    }

    private static StreamCase withoutMetrics(StreamCase c, Set<String> names) {
        return c.withRemovals(c.removals().stream().filter(r -> !names.contains(r.metric())).toList())
                .withReads(c.reads().stream().filter(r -> !names.contains(r.metric())).toList());
    }

    private static Set<String> aliases(MetricQuery q) {
        Set<String> names = new HashSet<>();
        q.aggregates().forEach(a -> names.add(a.alias()));
        return names;
    }

    private static List<SqlExpr> children(SqlExpr e) {
        return switch (e) {
            case SqlExpr.Negate n -> List.of(n.operand());
            case SqlExpr.Not n -> List.of(n.operand());
            case SqlExpr.Arithmetic a -> List.of(a.left(), a.right());
            case SqlExpr.Logical l -> List.of(l.left(), l.right());
            default -> List.of();
        };
    }

    private static boolean isPredicate(SqlExpr e) {
        return switch (e) {
            case SqlExpr.Not n -> true;
            case SqlExpr.Comparison c -> true;
            case SqlExpr.Logical l -> true;
            case SqlExpr.In in -> true;
            case SqlExpr.Between b -> true;
            case SqlExpr.IsNull n -> true;
            case SqlExpr.Like l -> true;
            case SqlExpr.Field f -> f.name().equals("online");
            case SqlExpr.Literal l -> l.value() instanceof Boolean;
            default -> false;
        };
    }
}
