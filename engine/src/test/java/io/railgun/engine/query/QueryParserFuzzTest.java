package io.railgun.engine.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.expr.ExpressionCompiler;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.Schema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Whatever the input, parsing (and compiling what parses) yields a result or a QueryException, nothing else. */
class QueryParserFuzzTest {
    static final List<String> VALID = List.of(
            "SELECT SUM(amount) AS total, COUNT(*) FROM payments WHERE amount > 100 GROUP BY card, merchant [RANGE 5 MINUTES];",
            "select count(distinct country) from payments where country not in ('FR', 'DE', NULL) group by card [range 180 days]",
            "SELECT AVG(amount * 1.5 - fee / 2) FROM p WHERE online AND NOT (amount BETWEEN -5 AND 5e3) GROUP BY merchant [RANGE 30 DAYS DELAY 1 MINUTE]",
            "SELECT MAX(amount), MIN(ts), LAST(country) AS \"last country\" FROM p WHERE country LIKE 'F_%' OR country IS NULL GROUP BY card [TUMBLING 1 HOUR]",
            "SELECT STDDEV(amount), VAR_POP(amount), VAR_SAMP(-amount), STDDEV_POP(amount) FROM p WHERE amount <> 0 AND amount != 1 GROUP BY card [RANGE UNBOUNDED]",
            "SELECT COUNT(amount) FROM p /* c */ WHERE amount >= 1 AND amount <= 2 OR amount < 0 -- x\n GROUP BY card [RANGE 90 SECONDS]");

    private static final List<String> VOCABULARY = List.of(
            "SELECT", "FROM", "WHERE", "GROUP", "BY", "AS", "AND", "OR", "NOT", "IN", "IS", "NULL", "TRUE", "FALSE",
            "BETWEEN", "LIKE", "DISTINCT", "COUNT", "SUM", "AVG", "STDDEV", "LAST", "FOO", "RANGE", "TUMBLING",
            "UNBOUNDED", "DELAY", "MINUTES", "HOUR", "DAYS", "MILLISECOND", "WEEKS", "amount", "card", "country",
            "online", "ts", "p", "(", ")", "[", "]", ",", ";", "*", "+", "-", "/", "=", "<>", "!=", "<", "<=", ">", ">=",
            "0", "1", "5", "-1", "9223372036854775807", "9223372036854775808", "1.5", "1e3", "'x'", "'F_%'", "''",
            "\"q\"", "'", "\"", "--", "/*", "*/", "é", "#", "1e", ".5");

    static final Schema SCHEMA;

    static {
        Map<String, FieldType> fields = new LinkedHashMap<>();
        fields.put("amount", FieldType.DOUBLE);
        fields.put("fee", FieldType.LONG);
        fields.put("card", FieldType.STRING);
        fields.put("merchant", FieldType.STRING);
        fields.put("country", FieldType.STRING);
        fields.put("online", FieldType.BOOLEAN);
        fields.put("ts", FieldType.TIMESTAMP);
        SCHEMA = Schema.of(fields);
    }

    @Property(tries = 2000)
    void randomStrings(@ForAll("garbage") String text) {
        check(text);
    }

    @Property(tries = 3000)
    void mutatedStatements(@ForAll("mutated") String text) {
        check(text);
    }

    @Property(tries = 3000)
    void randomTokenSequences(@ForAll("tokens") String text) {
        check(text);
    }

    @Property(tries = 50)
    void validStatementsParse(@ForAll("valid") String text) throws QueryException {
        Statement s = QueryParser.parse(text);
        assertThat(s.aggregates()).isNotEmpty();
        check(text);
    }

    static void check(String text) {
        Statement s;
        try {
            s = QueryParser.parse(text);
        } catch (QueryException e) {
            assertThat(e.code()).isIn("syntax_error", "unknown_function");
            assertThat(e.position()).isBetween(0, text.length());
            assertThat(e.getMessage()).contains(" line ").contains("Hint: ");
            return;
        }
        for (AggregateCall call : s.aggregates()) {
            assertThat(MetricNames.derive(call, s.groupBy(), s.window())).matches("[a-z0-9_]+");
            if (call.argument() != null) {
                compile(call.argument(), text, false);
            }
        }
        if (s.where() != null) {
            compile(s.where(), text, true);
        }
    }

    private static void compile(Expr e, String text, boolean predicate) {
        try {
            if (predicate) {
                ExpressionCompiler.compilePredicate(e, SCHEMA, text);
            } else {
                ExpressionCompiler.compile(e, SCHEMA, text);
            }
        } catch (QueryException ex) {
            assertThat(ex.code()).isIn("unknown_field", "type_mismatch");
            assertThat(ex.getMessage()).contains("Hint: ");
        }
    }

    @Provide
    Arbitrary<String> valid() {
        return Arbitraries.of(VALID);
    }

    @Provide
    Arbitrary<String> garbage() {
        return Arbitraries.oneOf(
                Arbitraries.strings().all().ofMaxLength(80),
                Arbitraries.strings().withChars("SELECTFROMWHEREGROUPBY ()[],;*+-/=<>!'\"0123456789.e_%").ofMaxLength(120));
    }

    @Provide
    Arbitrary<String> tokens() {
        return Arbitraries.of(VOCABULARY).list().ofMaxSize(40).map(l -> String.join(" ", l));
    }

    @Provide
    Arbitrary<String> mutated() {
        Arbitrary<String> base = Arbitraries.of(VALID);
        Arbitrary<Integer> mutationCount = Arbitraries.integers().between(1, 4);
        return Combinators.combine(base, mutationCount, Arbitraries.randomValue(r -> r)).as((text, n, random) -> {
            String s = text;
            for (int i = 0; i < n; i++) {
                int at = random.nextInt(s.length() + 1);
                int end = Math.min(s.length(), at + random.nextInt(12));
                s = switch (random.nextInt(6)) {
                    case 0 -> s.substring(0, at) + s.substring(end); // delete a range
                    case 1 -> s.substring(0, at) + VOCABULARY.get(random.nextInt(VOCABULARY.size())) + s.substring(at);
                    case 2 -> s.substring(0, at) + (char) random.nextInt(128) + s.substring(at);
                    case 3 -> s.substring(0, at); // truncate
                    case 4 -> s.substring(0, end) + s.substring(at); // duplicate a range
                    default -> s.substring(0, at) + " " + VOCABULARY.get(random.nextInt(VOCABULARY.size())) + " " + s.substring(end);
                };
            }
            return s;
        });
    }
}
