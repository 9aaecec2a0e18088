package io.railgun.engine.query;

import java.util.List;
import java.util.Locale;

/**
 * Derives the name of a metric that has no {@code AS} alias (SPEC §4). The rule, which is part of the
 * product's documented behaviour and must stay stable:
 *
 * <pre>
 * name     := function [ "_" argument ] "_by" { "_" groupField } "_" window
 * function := the aggregate in lower case: count, count_distinct, sum, avg, min, max, stddev_pop,
 *             stddev_samp (also for STDDEV), var_pop, var_samp, last
 * argument := absent for COUNT(*); a field's name; otherwise a rendering of the expression
 * window   := duration                               sliding, no delay      e.g. 5m
 *           | duration "_delay_" duration            sliding with a delay  e.g. 30d_delay_1m
 *           | "tumbling_" duration                   tumbling              e.g. tumbling_1h
 *           | "unbounded"
 * duration := the count in the largest unit that divides it exactly: w, d, h, m, s or ms
 *             (604800000 → 1w, 300000 → 5m, 90000 → 90s, 1500 → 1500ms)
 * </pre>
 *
 * Names are lower case; every run of characters other than {@code a-z 0-9} and {@code _} in a field
 * name or expression becomes one {@code _} (runs of {@code _} collapse, leading and trailing ones are
 * dropped, and a name left empty becomes {@code field}, an expression {@code expr}). An expression
 * argument is rendered operand by operand with operators as words: {@code + - * /} → plus minus
 * times div, comparisons → eq ne lt le gt ge, and/or/not, unary minus and negative numbers → neg,
 * {@code IN} → in, {@code BETWEEN a AND b} → between a and b, {@code IS [NOT] NULL} → is [not] null,
 * {@code LIKE} → like; parentheses are dropped and literals rendered by value (so
 * {@code SUM(amount * 2)} → {@code sum_amount_times_2_by_card_5m}). A rendering longer than
 * {@value #MAX_ARGUMENT} characters keeps its first {@value #KEEP} characters followed by {@code _} and
 * the 8 hex digits of the 32-bit FNV-1a hash (over UTF-16 chars) of the unsanitized rendering.
 * Examples: {@code sum_amount_by_card_5m}, {@code count_by_card_merchant_1h},
 * {@code count_distinct_country_by_card_180d}, {@code avg_amount_by_merchant_30d_delay_1m},
 * {@code count_by_card_tumbling_1h}, {@code count_by_card_unbounded}. Two metrics of a stream may still
 * derive the same name; the statement is then rejected as a duplicate and needs an alias.
 * Stateless and thread-safe.
 */
public final class MetricNames {
    static final int MAX_ARGUMENT = 40;
    static final int KEEP = 31;
    private static final long[] UNIT_MS = {604_800_000L, 86_400_000L, 3_600_000L, 60_000L, 1_000L};
    private static final String[] UNIT_SUFFIX = {"w", "d", "h", "m", "s"};

    private MetricNames() {}

    /** The metric's name: its alias when it has one, else {@link #derive}. */
    public static String of(AggregateCall call, List<String> groupBy, WindowSpec window) {
        return call.alias() != null ? call.alias() : derive(call, groupBy, window);
    }

    /** The derived name of {@code call} (its alias is ignored). */
    public static String derive(AggregateCall call, List<String> groupBy, WindowSpec window) {
        StringBuilder sb = new StringBuilder(call.function().name().toLowerCase(Locale.ROOT));
        if (call.argument() != null) {
            sb.append('_').append(argument(call.argument()));
        }
        sb.append("_by");
        for (String field : groupBy) {
            sb.append('_').append(sanitize(field));
        }
        return sb.append('_').append(window(window)).toString();
    }

    /** The window part of a derived name, e.g. {@code 5m}, {@code 30d_delay_1m}, {@code tumbling_1h}. */
    public static String window(WindowSpec window) {
        return switch (window.kind()) {
            case SLIDING -> window.delayMs() == 0
                    ? duration(window.sizeMs())
                    : duration(window.sizeMs()) + "_delay_" + duration(window.delayMs());
            case TUMBLING -> "tumbling_" + duration(window.sizeMs());
            case UNBOUNDED -> "unbounded";
        };
    }

    /** A length in the largest unit that divides it exactly: {@code 1w}, {@code 90s}, {@code 1500ms}. */
    public static String duration(long ms) {
        if (ms != 0) {
            for (int i = 0; i < UNIT_MS.length; i++) {
                if (ms % UNIT_MS[i] == 0) {
                    return ms / UNIT_MS[i] + UNIT_SUFFIX[i];
                }
            }
        }
        return ms + "ms";
    }

    private static String argument(Expr e) {
        if (e instanceof Expr.FieldRef f) {
            String name = sanitize(f.name());
            return name.isEmpty() ? "field" : name;
        }
        StringBuilder raw = new StringBuilder();
        render(e, raw);
        String name = sanitize(raw.toString());
        if (name.isEmpty()) {
            name = "expr";
        }
        if (name.length() <= MAX_ARGUMENT) {
            return name;
        }
        String head = name.substring(0, KEEP);
        while (head.endsWith("_")) {
            head = head.substring(0, head.length() - 1);
        }
        return head + "_" + String.format("%08x", fnv1a(raw));
    }

    private static void render(Expr e, StringBuilder out) {
        switch (e) {
            case Expr.FieldRef f -> out.append(f.name().toLowerCase(Locale.ROOT));
            case Expr.Literal l -> literal(l.value(), out);
            case Expr.Unary u -> {
                out.append(u.op() == Expr.UnaryOp.NOT ? "not " : "neg ");
                render(u.operand(), out);
            }
            case Expr.Binary b -> {
                render(b.left(), out);
                out.append(' ').append(word(b.op())).append(' ');
                render(b.right(), out);
            }
            case Expr.InList i -> {
                render(i.operand(), out);
                out.append(i.negated() ? " not in" : " in");
                for (Expr v : i.values()) {
                    out.append(' ');
                    render(v, out);
                }
            }
            case Expr.Between b -> {
                render(b.operand(), out);
                out.append(b.negated() ? " not between " : " between ");
                render(b.low(), out);
                out.append(" and ");
                render(b.high(), out);
            }
            case Expr.IsNull n -> {
                render(n.operand(), out);
                out.append(n.negated() ? " is not null" : " is null");
            }
            case Expr.Like l -> {
                render(l.operand(), out);
                out.append(l.negated() ? " not like " : " like ");
                render(l.pattern(), out);
            }
        }
    }

    private static void literal(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Number n && n.doubleValue() < 0) {
            out.append("neg ").append(n.toString().substring(1));
        } else {
            out.append(value);
        }
    }

    private static String word(Expr.BinaryOp op) {
        return switch (op) {
            case ADD -> "plus";
            case SUBTRACT -> "minus";
            case MULTIPLY -> "times";
            case DIVIDE -> "div";
            case EQ -> "eq";
            case NE -> "ne";
            case LT -> "lt";
            case LE -> "le";
            case GT -> "gt";
            case GE -> "ge";
            case AND -> "and";
            case OR -> "or";
        };
    }

    /** Lower case; each run of characters outside {@code [a-z0-9_]} and of {@code _} becomes one {@code _}, trimmed. */
    static String sanitize(String s) {
        String lower = s.toLowerCase(Locale.ROOT);
        StringBuilder sb = new StringBuilder(lower.length());
        boolean pendingUnderscore = false;
        for (int i = 0; i < lower.length(); i++) {
            char c = lower.charAt(i);
            if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
                if (pendingUnderscore && !sb.isEmpty()) {
                    sb.append('_');
                }
                pendingUnderscore = false;
                sb.append(c);
            } else {
                pendingUnderscore = true;
            }
        }
        return sb.toString();
    }

    private static int fnv1a(CharSequence s) {
        int hash = 0x811c9dc5;
        for (int i = 0; i < s.length(); i++) {
            hash ^= s.charAt(i);
            hash *= 0x01000193;
        }
        return hash;
    }
}
