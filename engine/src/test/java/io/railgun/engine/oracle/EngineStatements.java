package io.railgun.engine.oracle;

import io.railgun.engine.query.AggregateCall;
import io.railgun.engine.query.Expr;
import io.railgun.engine.query.Statement;
import io.railgun.engine.query.WindowSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Converts a statement parsed by the engine's parser into the oracle's {@link MetricQuery}, for
 * tests that start from statement text. Only the syntax tree is taken from the engine; the oracle
 * evaluates it with its own interpreter.
 */
public final class EngineStatements {
    private EngineStatements() {}

    /**
     * @param names the metric names the engine gave the statement's aggregates, in SELECT order
     *              (needed for aggregates without an alias)
     */
    public static MetricQuery toQuery(Statement s, List<String> names) {
        List<AggregateSpec> aggregates = new ArrayList<>();
        for (int i = 0; i < s.aggregates().size(); i++) {
            AggregateCall call = s.aggregates().get(i);
            String name = names != null ? names.get(i) : call.alias();
            AggregateKind kind = switch (call.function()) {
                case COUNT -> call.argument() == null ? AggregateKind.COUNT_STAR : AggregateKind.COUNT;
                case COUNT_DISTINCT -> AggregateKind.COUNT_DISTINCT;
                case SUM -> AggregateKind.SUM;
                case AVG -> AggregateKind.AVG;
                case MIN -> AggregateKind.MIN;
                case MAX -> AggregateKind.MAX;
                case STDDEV_POP -> AggregateKind.STDDEV_POP;
                case STDDEV_SAMP -> AggregateKind.STDDEV_SAMP;
                case VAR_POP -> AggregateKind.VAR_POP;
                case VAR_SAMP -> AggregateKind.VAR_SAMP;
                case LAST -> AggregateKind.LAST;
            };
            aggregates.add(new AggregateSpec(kind, call.argument() == null ? null : toExpr(call.argument()), name));
        }
        List<String> groupBy = s.groupBy().stream().map(g -> g.toLowerCase(Locale.ROOT)).toList();
        WindowSpec w = s.window();
        WindowDef window = switch (w.kind()) {
            case SLIDING -> WindowDef.sliding(w.sizeMs(), w.delayMs());
            case TUMBLING -> WindowDef.tumbling(w.sizeMs());
            case UNBOUNDED -> WindowDef.unbounded();
        };
        return new MetricQuery(aggregates, s.where() == null ? null : toExpr(s.where()), groupBy, window);
    }

    public static SqlExpr toExpr(Expr e) {
        return switch (e) {
            case Expr.FieldRef f -> new SqlExpr.Field(f.name().toLowerCase(Locale.ROOT));
            case Expr.Literal l -> new SqlExpr.Literal(l.value());
            case Expr.Unary u -> u.op() == Expr.UnaryOp.NOT ? new SqlExpr.Not(toExpr(u.operand())) : new SqlExpr.Negate(toExpr(u.operand()));
            case Expr.Binary b -> switch (b.op()) {
                case ADD -> new SqlExpr.Arithmetic(SqlExpr.ArithmeticOp.ADD, toExpr(b.left()), toExpr(b.right()));
                case SUBTRACT -> new SqlExpr.Arithmetic(SqlExpr.ArithmeticOp.SUBTRACT, toExpr(b.left()), toExpr(b.right()));
                case MULTIPLY -> new SqlExpr.Arithmetic(SqlExpr.ArithmeticOp.MULTIPLY, toExpr(b.left()), toExpr(b.right()));
                case DIVIDE -> new SqlExpr.Arithmetic(SqlExpr.ArithmeticOp.DIVIDE, toExpr(b.left()), toExpr(b.right()));
                case EQ -> new SqlExpr.Comparison(SqlExpr.ComparisonOp.EQ, toExpr(b.left()), toExpr(b.right()));
                case NE -> new SqlExpr.Comparison(SqlExpr.ComparisonOp.NE, toExpr(b.left()), toExpr(b.right()));
                case LT -> new SqlExpr.Comparison(SqlExpr.ComparisonOp.LT, toExpr(b.left()), toExpr(b.right()));
                case LE -> new SqlExpr.Comparison(SqlExpr.ComparisonOp.LE, toExpr(b.left()), toExpr(b.right()));
                case GT -> new SqlExpr.Comparison(SqlExpr.ComparisonOp.GT, toExpr(b.left()), toExpr(b.right()));
                case GE -> new SqlExpr.Comparison(SqlExpr.ComparisonOp.GE, toExpr(b.left()), toExpr(b.right()));
                case AND -> new SqlExpr.Logical(true, toExpr(b.left()), toExpr(b.right()));
                case OR -> new SqlExpr.Logical(false, toExpr(b.left()), toExpr(b.right()));
            };
            case Expr.InList in -> new SqlExpr.In(toExpr(in.operand()), in.values().stream().map(EngineStatements::toExpr).toList(), in.negated());
            case Expr.Between b -> new SqlExpr.Between(toExpr(b.operand()), toExpr(b.low()), toExpr(b.high()), b.negated());
            case Expr.IsNull n -> new SqlExpr.IsNull(toExpr(n.operand()), n.negated());
            case Expr.Like l -> {
                if (!(l.pattern() instanceof Expr.Literal lit) || !(lit.value() instanceof String pattern)) {
                    throw new IllegalArgumentException("the oracle supports LIKE with a string literal pattern only");
                }
                yield new SqlExpr.Like(toExpr(l.operand()), pattern, l.negated());
            }
        };
    }
}
