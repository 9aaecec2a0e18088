package io.railgun.engine.plan;

import io.railgun.engine.query.Expr;
import java.util.Locale;

/**
 * A canonical text of an expression, without source positions and with field names lower-cased:
 * two statements with the same filter or argument get the same key, so the plan shares their
 * operators.
 */
final class ExprKey {
    private ExprKey() {}

    static String of(Expr e) {
        StringBuilder sb = new StringBuilder();
        render(e, sb);
        return sb.toString();
    }

    private static void render(Expr e, StringBuilder sb) {
        switch (e) {
            case null -> sb.append("*");
            case Expr.FieldRef f -> sb.append('`').append(f.name().toLowerCase(Locale.ROOT)).append('`');
            case Expr.Literal l -> {
                Object v = l.value();
                if (v instanceof String s) {
                    sb.append('\'').append(s.replace("'", "''")).append('\'');
                } else if (v == null) {
                    sb.append("NULL");
                } else {
                    sb.append(v.getClass().getSimpleName().charAt(0)).append(':').append(v);
                }
            }
            case Expr.Unary u -> {
                sb.append(u.op()).append('(');
                render(u.operand(), sb);
                sb.append(')');
            }
            case Expr.Binary b -> {
                sb.append('(');
                render(b.left(), sb);
                sb.append(' ').append(b.op().symbol()).append(' ');
                render(b.right(), sb);
                sb.append(')');
            }
            case Expr.InList in -> {
                sb.append('(');
                render(in.operand(), sb);
                sb.append(in.negated() ? " NOT IN [" : " IN [");
                for (Expr v : in.values()) {
                    render(v, sb);
                    sb.append(',');
                }
                sb.append("])");
            }
            case Expr.Between b -> {
                sb.append('(');
                render(b.operand(), sb);
                sb.append(b.negated() ? " NOT BETWEEN " : " BETWEEN ");
                render(b.low(), sb);
                sb.append(" AND ");
                render(b.high(), sb);
                sb.append(')');
            }
            case Expr.IsNull n -> {
                sb.append('(');
                render(n.operand(), sb);
                sb.append(n.negated() ? " IS NOT NULL)" : " IS NULL)");
            }
            case Expr.Like l -> {
                sb.append('(');
                render(l.operand(), sb);
                sb.append(l.negated() ? " NOT LIKE " : " LIKE ");
                render(l.pattern(), sb);
                sb.append(')');
            }
        }
    }
}
