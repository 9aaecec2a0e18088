package io.railgun.engine.oracle;

import java.util.List;
import java.util.StringJoiner;

/**
 * A statement as the oracle sees it: {@code SELECT aggregates FROM stream [WHERE where] GROUP BY
 * groupBy window}.
 *
 * @param aggregates the SELECT list
 * @param where      the filter, or null
 * @param groupBy    lower-case group-by field names, in order
 * @param window     the window
 * @param style      how the statement text is rendered (parentheses)
 */
public record MetricQuery(List<AggregateSpec> aggregates, SqlExpr where, List<String> groupBy, WindowDef window, SqlRenderer.Style style) {
    public MetricQuery {
        aggregates = List.copyOf(aggregates);
        groupBy = List.copyOf(groupBy);
        if (aggregates.isEmpty() || groupBy.isEmpty()) {
            throw new IllegalArgumentException("a statement needs aggregates and group-by fields");
        }
    }

    public MetricQuery(List<AggregateSpec> aggregates, SqlExpr where, List<String> groupBy, WindowDef window) {
        this(aggregates, where, groupBy, window, SqlRenderer.Style.MINIMAL);
    }

    public MetricQuery withAggregates(List<AggregateSpec> newAggregates) {
        return new MetricQuery(newAggregates, where, groupBy, window, style);
    }

    public MetricQuery withWhere(SqlExpr newWhere) {
        return new MetricQuery(aggregates, newWhere, groupBy, window, style);
    }

    public MetricQuery withGroupBy(List<String> newGroupBy) {
        return new MetricQuery(aggregates, where, newGroupBy, window, style);
    }

    public MetricQuery withWindow(WindowDef newWindow) {
        return new MetricQuery(aggregates, where, groupBy, newWindow, style);
    }

    /** The statement text. */
    public String sql(String stream) {
        SqlRenderer renderer = new SqlRenderer(style);
        StringJoiner select = new StringJoiner(", ");
        for (AggregateSpec a : aggregates) {
            select.add(a.sql(renderer));
        }
        boolean mixed = style == SqlRenderer.Style.MIXED_CASE;
        String gap = mixed ? "\n  " : " ";
        StringBuilder sb = new StringBuilder(renderer.kw("SELECT ")).append(select).append(gap).append(renderer.kw("FROM ")).append(stream);
        if (where != null) {
            sb.append(gap).append(renderer.kw("WHERE ")).append(renderer.text(where));
        }
        sb.append(gap).append(renderer.kw("GROUP BY ")).append(String.join(", ", groupBy.stream().map(renderer::identifier).toList()))
                .append(' ').append(renderer.kw(window.sql()));
        return mixed ? sb.append(';').toString() : sb.toString();
    }
}
