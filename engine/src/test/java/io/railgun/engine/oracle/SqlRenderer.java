package io.railgun.engine.oracle;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * Renders a {@link SqlExpr} as query-language text. In {@link Style#MINIMAL} it writes only the
 * parentheses that SQL precedence needs (OR &lt; AND &lt; NOT &lt; predicates &lt; + - &lt; * / &lt;
 * unary minus), so the engine's parser precedence is exercised too; {@link Style#FULL} wraps every
 * compound operand; {@link Style#MIXED_CASE} is MINIMAL with lower-case keywords and upper- or
 * capitalised field names (both are case-insensitive in SPEC §4 and the schema).
 */
public final class SqlRenderer {
    public enum Style { MINIMAL, FULL, MIXED_CASE }

    private static final int OR = 1;
    private static final int AND = 2;
    private static final int NOT = 3;
    private static final int PREDICATE = 4;
    private static final int ADDITIVE = 5;
    private static final int MULTIPLICATIVE = 6;
    private static final int UNARY = 7;
    private static final int PRIMARY = 8;

    private final Style style;

    public SqlRenderer(Style style) {
        this.style = style;
    }

    public static String render(SqlExpr e) {
        return new SqlRenderer(Style.MINIMAL).text(e);
    }

    public String text(SqlExpr e) {
        return new Rendered(e).text;
    }

    private final class Rendered {
        final String text;
        final int level;

        Rendered(SqlExpr e) {
            switch (e) {
                case SqlExpr.Field f -> {
                    text = identifier(f.name());
                    level = PRIMARY;
                }
                case SqlExpr.Literal l -> {
                    text = keywordCase(literal(l.value()), l.value() == null || l.value() instanceof Boolean);
                    level = text.startsWith("-") ? UNARY : PRIMARY;
                }
                case SqlExpr.Negate n -> {
                    text = "-" + child(n.operand(), PRIMARY);
                    level = UNARY;
                }
                case SqlExpr.Not n -> {
                    text = kw("NOT ") + child(n.operand(), PREDICATE);
                    level = NOT;
                }
                case SqlExpr.Arithmetic a -> {
                    boolean additive = a.op() == SqlExpr.ArithmeticOp.ADD || a.op() == SqlExpr.ArithmeticOp.SUBTRACT;
                    int own = additive ? ADDITIVE : MULTIPLICATIVE;
                    text = child(a.left(), own) + " " + a.op().symbol + " " + child(a.right(), own + 1);
                    level = own;
                }
                case SqlExpr.Comparison c -> {
                    text = child(c.left(), ADDITIVE) + " " + c.op().symbol + " " + child(c.right(), ADDITIVE);
                    level = PREDICATE;
                }
                case SqlExpr.Logical l -> {
                    int own = l.and() ? AND : OR;
                    text = child(l.left(), own) + kw(l.and() ? " AND " : " OR ") + child(l.right(), own + 1);
                    level = own;
                }
                case SqlExpr.In in -> {
                    StringBuilder sb = new StringBuilder(child(in.operand(), ADDITIVE));
                    sb.append(kw(in.negated() ? " NOT IN (" : " IN ("));
                    for (int i = 0; i < in.values().size(); i++) {
                        sb.append(i == 0 ? "" : ", ").append(child(in.values().get(i), ADDITIVE));
                    }
                    text = sb.append(')').toString();
                    level = PREDICATE;
                }
                case SqlExpr.Between b -> {
                    text = child(b.operand(), ADDITIVE) + kw(b.negated() ? " NOT BETWEEN " : " BETWEEN ")
                            + child(b.low(), ADDITIVE) + kw(" AND ") + child(b.high(), ADDITIVE);
                    level = PREDICATE;
                }
                case SqlExpr.IsNull n -> {
                    text = child(n.operand(), ADDITIVE) + kw(n.negated() ? " IS NOT NULL" : " IS NULL");
                    level = PREDICATE;
                }
                case SqlExpr.Like l -> {
                    text = child(l.operand(), ADDITIVE) + kw(l.negated() ? " NOT LIKE " : " LIKE ") + literal(l.pattern());
                    level = PREDICATE;
                }
            }
        }

        private String child(SqlExpr e, int needed) {
            Rendered r = new Rendered(e);
            boolean wrap = style == Style.FULL ? r.level < PRIMARY : r.level < needed;
            return wrap ? "(" + r.text + ")" : r.text;
        }
    }

    /** A keyword in this style's case. */
    public String kw(String keyword) {
        return style == Style.MIXED_CASE ? keyword.toLowerCase(Locale.ROOT) : keyword;
    }

    /** A field name in this style's case: MIXED_CASE upper-cases even-length names and capitalises the others. */
    public String identifier(String name) {
        if (style != Style.MIXED_CASE || name.isEmpty()) {
            return name;
        }
        return name.length() % 2 == 0 ? name.toUpperCase(Locale.ROOT) : Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    private String keywordCase(String text, boolean isKeyword) {
        return isKeyword ? kw(text) : text;
    }

    /** SQL text of a literal value. Doubles always carry a decimal point and never an exponent. */
    public static String literal(Object v) {
        return switch (v) {
            case null -> "NULL";
            case String s -> "'" + s.replace("'", "''") + "'";
            case Boolean b -> b ? "TRUE" : "FALSE";
            case Long l -> Long.toString(l);
            case Double d -> {
                if (d.isNaN() || d.isInfinite()) {
                    throw new IllegalArgumentException("no literal for " + d);
                }
                String plain = new BigDecimal(Double.toString(d)).toPlainString();
                if (d == 0.0 && 1 / d < 0) {
                    plain = "-0.0";
                }
                yield plain.contains(".") ? plain : plain + ".0";
            }
            default -> throw new IllegalArgumentException("no literal for " + v.getClass());
        };
    }
}
