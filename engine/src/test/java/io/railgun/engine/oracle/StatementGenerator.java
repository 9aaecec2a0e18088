package io.railgun.engine.oracle;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Random statements over the payment stream: 1–4 aggregates of every kind, filters from
 * {@link ExprGenerator}, GROUP BY one or several fields including at least one partitioner, and
 * windows of every kind with sizes from 1 ms to 400 days (log-uniform, near the case's time scale,
 * or tiny); statements often share a window, a filter or a group-by with an earlier one.
 */
final class StatementGenerator {
    static final long MAX_WINDOW_MS = 400 * Durations.DAY;

    private final GenContext g;
    private final ExprGenerator exprs;
    private final List<MetricQuery> made = new ArrayList<>();
    private int metricCounter;

    StatementGenerator(GenContext g) {
        this.g = g;
        this.exprs = new ExprGenerator(g);
    }

    MetricQuery next(int statementIndex) {
        WindowDef window = !made.isEmpty() && g.chance(0.3) ? g.oneOf(made).window() : window();
        List<String> groupBy = !made.isEmpty() && g.chance(0.25) ? g.oneOf(made).groupBy() : groupBy();
        SqlExpr where;
        List<MetricQuery> filtered = made.stream().filter(m -> m.where() != null).toList();
        if (!filtered.isEmpty() && g.chance(0.2)) {
            where = g.oneOf(filtered).where();
        } else {
            where = g.chance(0.45) ? null : exprs.predicate(g.between(0, 3));
        }
        int n = g.between(1, 4);
        List<AggregateSpec> aggregates = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            AggregateKind kind = g.oneOf(AggregateKind.values());
            SqlExpr arg = switch (kind) {
                case COUNT_STAR -> null;
                case COUNT, COUNT_DISTINCT, MIN, MAX, LAST -> exprs.anyValue();
                default -> exprs.numeric(2);
            };
            String alias = "s" + statementIndex + "_" + kind.name().toLowerCase() + "_" + (metricCounter++);
            aggregates.add(new AggregateSpec(kind, arg, alias));
        }
        MetricQuery q = new MetricQuery(aggregates, where, groupBy, window,
                g.oneOf(SqlRenderer.Style.values()));
        made.add(q);
        return q;
    }

    private List<String> groupBy() {
        List<String> fields = new ArrayList<>();
        fields.add(g.oneOf(g.partitioners));
        for (String extra : g.present("card", "merchant", "country", "online", "mcc")) {
            if (!fields.contains(extra) && g.chance(0.2)) {
                fields.add(extra);
            }
        }
        Collections.shuffle(fields, g.random);
        return fields;
    }

    WindowDef window() {
        double u = g.random.nextDouble();
        if (u < 0.45) {
            return WindowDef.sliding(size());
        }
        if (u < 0.62) {
            long w = size();
            double v = g.random.nextDouble();
            long d = v < 0.3 ? g.between(1L, 10L)
                    : v < 0.7 ? Math.max(1, Math.round(g.scaleMs * (0.5 + g.random.nextDouble() * 10)))
                    : nice(g.logUniform(1, Math.max(2, Math.min(MAX_WINDOW_MS, 2 * w))));
            return WindowDef.sliding(w, d);
        }
        if (u < 0.84) {
            return WindowDef.tumbling(size());
        }
        return WindowDef.unbounded();
    }

    /**
     * A window length: tiny, near the case's time scale, anywhere in 1 ms .. 400 days, or (3%) of
     * 1 to 20,000 years.
     */
    long size() {
        double u = g.random.nextDouble();
        long ms;
        if (u < 0.03) {
            // windows of years, up to longer than the whole accepted range of event times (EventTime)
            return nice(g.logUniform(365 * Durations.DAY, 20_000 * 365 * Durations.DAY));
        }
        if (u < 0.2) {
            ms = g.between(1L, 10L);
        } else if (u < 0.6) {
            ms = Math.max(1, Math.round(g.scaleMs * (0.5 + g.random.nextDouble() * 40)));
        } else {
            ms = g.logUniform(1, MAX_WINDOW_MS);
        }
        return Math.min(MAX_WINDOW_MS, g.chance(0.5) ? nice(ms) : ms);
    }

    /** Rounds to a whole number of the largest unit not above it (5 MINUTES, 3 DAYS ...). */
    long nice(long ms) {
        long[] units = {Durations.WEEK, Durations.DAY, Durations.HOUR, Durations.MINUTE, Durations.SECOND, 1};
        for (long unit : units) {
            if (ms >= unit) {
                return Math.max(1, Math.round((double) ms / unit)) * unit;
            }
        }
        return Math.max(1, ms);
    }
}
