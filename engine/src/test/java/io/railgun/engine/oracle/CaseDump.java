package io.railgun.engine.oracle;

import io.railgun.engine.schema.Field;
import io.railgun.engine.schema.StreamDefinition;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** A readable listing of a {@link StreamCase}, for failure messages. */
public final class CaseDump {
    private CaseDump() {}

    public static String describe(StreamCase c) {
        StreamDefinition d = c.definition();
        StringBuilder sb = new StringBuilder();
        sb.append("stream ").append(d.name()).append(" fields [");
        for (Field f : d.schema().fields()) {
            sb.append(f.index() == 0 ? "" : ", ").append(f.name()).append(':').append(f.type().jsonName());
        }
        sb.append("] eventId=").append(d.eventIdField()).append(" timestamp=").append(d.timestampField())
                .append(" partitioners=").append(d.partitioners()).append(" partitions=").append(d.partitions())
                .append(" lateness=").append(d.latenessMs()).append("ms lateEvents=").append(d.lateEvents())
                .append(" minDedupHorizonMs=").append(c.minDedupHorizonMs()).append('\n');
        if (c.seed() != 0) {
            sb.append("generator seed ").append(c.seed()).append(" (").append(c.profile()).append(")\n");
        }
        sb.append("statements:\n");
        for (MetricQuery q : c.statements()) {
            sb.append("  ").append(q.sql(d.name())).append('\n');
        }
        for (StreamCase.Removal r : c.removals()) {
            sb.append("remove metric ").append(r.metric()).append(" before event #").append(r.beforeEvent()).append('\n');
        }
        Set<String> shown = shownFields(c);
        sb.append("events (").append(c.events().size()).append("; ts shown as +ms after ").append(c.timeOrigin())
                .append("; only id, ts, partitioners and fields the statements use):\n");
        Map<Map<String, Object>, Integer> firstIndex = new IdentityHashMap<>();
        for (int i = 0; i < c.events().size(); i++) {
            Map<String, Object> e = c.events().get(i);
            Integer first = firstIndex.putIfAbsent(e, i);
            sb.append(String.format("  #%-4d", i));
            for (String f : shown) {
                Object v = e.get(f);
                if (f.equals("ts") && v instanceof Long t) {
                    sb.append(" ts=+").append(t - c.timeOrigin()).append(" [").append(Durations.show(t - c.timeOrigin())).append(']');
                } else {
                    sb.append(' ').append(f).append('=').append(SqlValues.show(v));
                }
            }
            if (first != null) {
                sb.append("   (re-send of #").append(first).append(')');
            }
            sb.append('\n');
        }
        for (StreamCase.Read r : c.reads()) {
            sb.append("read ").append(r.metric()).append(" key ").append(ExactnessRunner.show(r.keyRow())).append('\n');
        }
        return sb.toString();
    }

    private static Set<String> shownFields(StreamCase c) {
        Set<String> fields = new LinkedHashSet<>();
        fields.add(c.definition().eventIdField().toLowerCase(Locale.ROOT));
        fields.add(c.definition().timestampField().toLowerCase(Locale.ROOT));
        c.definition().partitioners().forEach(p -> fields.add(p.toLowerCase(Locale.ROOT)));
        for (MetricQuery q : c.statements()) {
            fields.addAll(q.groupBy());
            List<SqlExpr> exprs = new ArrayList<>();
            if (q.where() != null) {
                exprs.add(q.where());
            }
            q.aggregates().forEach(a -> {
                if (a.argument() != null) {
                    exprs.add(a.argument());
                }
            });
            exprs.forEach(e -> collect(e, fields));
        }
        return fields;
    }

    static void collect(SqlExpr e, Set<String> out) {
        switch (e) {
            case SqlExpr.Field f -> out.add(f.name());
            case SqlExpr.Literal l -> { }
            case SqlExpr.Negate n -> collect(n.operand(), out);
            case SqlExpr.Not n -> collect(n.operand(), out);
            case SqlExpr.Arithmetic a -> {
                collect(a.left(), out);
                collect(a.right(), out);
            }
            case SqlExpr.Comparison a -> {
                collect(a.left(), out);
                collect(a.right(), out);
            }
            case SqlExpr.Logical a -> {
                collect(a.left(), out);
                collect(a.right(), out);
            }
            case SqlExpr.In in -> {
                collect(in.operand(), out);
                in.values().forEach(v -> collect(v, out));
            }
            case SqlExpr.Between b -> {
                collect(b.operand(), out);
                collect(b.low(), out);
                collect(b.high(), out);
            }
            case SqlExpr.IsNull n -> collect(n.operand(), out);
            case SqlExpr.Like l -> collect(l.operand(), out);
        }
    }
}
