package io.railgun.engine.oracle;

/**
 * One aggregate of a statement's SELECT list.
 *
 * @param kind     the function
 * @param argument its argument (null only for COUNT(*))
 * @param alias    the metric name ({@code AS alias})
 */
public record AggregateSpec(AggregateKind kind, SqlExpr argument, String alias) {
    public AggregateSpec {
        if ((kind == AggregateKind.COUNT_STAR) != (argument == null)) {
            throw new IllegalArgumentException("COUNT(*) and only it has no argument");
        }
    }

    public String sql(SqlRenderer renderer) {
        String call = renderer.kw(kind.sql("\u0000")).replace("\u0000", argument == null ? "*" : renderer.text(argument));
        return call + renderer.kw(" AS ") + alias;
    }
}
