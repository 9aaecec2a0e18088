package io.railgun.engine.expr;

import io.railgun.engine.query.Expr;
import io.railgun.engine.query.Expr.BinaryOp;
import io.railgun.engine.query.QueryException;
import io.railgun.engine.schema.Field;
import io.railgun.engine.schema.Schema;
import java.util.Locale;

/**
 * Turns an {@link Expr} into a tree of {@link Evaluator}s, once per statement, with SQL semantics:
 * <ul>
 *   <li>fields are resolved to their slot index here, so evaluation never looks anything up by name;
 *       TIMESTAMP fields are LONG;
 *   <li>{@code + - * /}: LONG op LONG is LONG (Java long arithmetic, {@code /} truncates toward zero),
 *       with a DOUBLE operand it is DOUBLE; division by zero, and any non-finite DOUBLE result, is NULL;
 *   <li>comparisons: numbers across LONG/DOUBLE exactly, strings by UTF-8 bytes (code point order),
 *       booleans false &lt; true;
 *   <li>{@code AND OR NOT}, {@code IN}, {@code BETWEEN}, {@code LIKE} in three-valued logic; {@code IS
 *       [NOT] NULL} is never NULL; any operator with a NULL operand (other than AND/OR/IS) is NULL;
 *   <li>IN lists and LIKE patterns must be literals: they are pre-built into sorted primitive arrays,
 *       UTF-8 {@code byte[][]} and a byte matcher.
 * </ul>
 * Errors are {@link QueryException}s: {@code unknown_field} (hint lists the stream's fields) and
 * {@code type_mismatch}, positioned at the offending node. Runs on the thread that registers the
 * statement; the result belongs to whichever single thread then evaluates it.
 */
public final class ExpressionCompiler {
    static final String TYPE_MISMATCH = "type_mismatch";
    private static final String PREDICATE_HINT = "a WHERE clause needs a true/false condition, e.g. amount > 100";

    private final Schema schema;
    private final String text;

    private ExpressionCompiler(Schema schema, String text) {
        this.schema = schema;
        this.text = text;
    }

    /** Compiles {@code expr} against {@code schema}; {@code statementText} is used for error positions. */
    public static Evaluator compile(Expr expr, Schema schema, String statementText) throws QueryException {
        return new ExpressionCompiler(schema, statementText).compileNode(expr);
    }

    /**
     * Compiles a WHERE condition, which must be BOOLEAN (a bare NULL becomes a BOOLEAN that is always
     * NULL, so nothing passes). Use {@link Evaluator#test} on the result.
     */
    public static Evaluator compilePredicate(Expr expr, Schema schema, String statementText) throws QueryException {
        ExpressionCompiler compiler = new ExpressionCompiler(schema, statementText);
        Evaluator e = compiler.compileNode(expr);
        if (e.type() == ValueType.NULL) {
            return ConstantEvaluator.nullOf(ValueType.BOOLEAN);
        }
        if (e.type() != ValueType.BOOLEAN) {
            throw compiler.mismatch(expr.position(),
                    "the WHERE condition " + compiler.describe(expr, e.type()) + " is not true/false", PREDICATE_HINT);
        }
        return e;
    }

    Evaluator compileNode(Expr expr) throws QueryException {
        return switch (expr) {
            case Expr.FieldRef f -> field(f);
            case Expr.Literal l -> literal(l.value(), l.position());
            case Expr.Unary u -> unary(u);
            case Expr.Binary b -> binary(b);
            case Expr.InList in -> InListCompiler.compile(this, in);
            case Expr.Between b -> between(b);
            case Expr.IsNull n -> new IsNullEvaluator(compileNode(n.operand()), n.negated());
            case Expr.Like l -> like(l);
        };
    }

    private Evaluator field(Expr.FieldRef ref) throws QueryException {
        Field f = schema.field(ref.name());
        if (f == null) {
            throw new QueryException("unknown_field", "unknown field '" + ref.name() + "'", text, ref.position(),
                    FieldSuggestions.hint(ref.name(), schema));
        }
        return switch (ValueType.of(f.type())) {
            case LONG -> new LongFieldEvaluator(f.index());
            case DOUBLE -> new DoubleFieldEvaluator(f.index());
            case BOOLEAN -> new BooleanFieldEvaluator(f.index());
            case STRING -> new StringFieldEvaluator(f.index());
            case NULL -> throw new AssertionError();
        };
    }

    private Evaluator literal(Object value, int position) throws QueryException {
        return switch (value) {
            case null -> ConstantEvaluator.nullOf(ValueType.NULL);
            case Long l -> ConstantEvaluator.ofLong(l);
            case Integer i -> ConstantEvaluator.ofLong(i);
            case Double d -> ConstantEvaluator.ofDouble(d);
            case Float f -> ConstantEvaluator.ofDouble(f);
            case String s -> ConstantEvaluator.ofString(s);
            case Boolean b -> ConstantEvaluator.ofBoolean(b);
            default -> throw mismatch(position, "unsupported literal " + value, "use a number, 'string', TRUE, FALSE or NULL");
        };
    }

    private Evaluator unary(Expr.Unary u) throws QueryException {
        Evaluator operand = compileNode(u.operand());
        ValueType t = operand.type();
        if (u.op() == Expr.UnaryOp.NOT) {
            requireBoolean(u.operand(), t, "NOT");
            return t == ValueType.NULL ? ConstantEvaluator.nullOf(ValueType.BOOLEAN) : new NotEvaluator(operand);
        }
        if (t == ValueType.NULL) {
            return operand;
        }
        if (!t.isNumeric()) {
            throw mismatch(u.operand().position(), "cannot negate " + describe(u.operand(), t),
                    "unary minus works on long and double values");
        }
        return new NegateEvaluator(operand);
    }

    private Evaluator binary(Expr.Binary b) throws QueryException {
        Evaluator left = compileNode(b.left());
        Evaluator right = compileNode(b.right());
        ValueType lt = left.type();
        ValueType rt = right.type();
        BinaryOp op = b.op();
        if (op.isLogical()) {
            requireBoolean(b.left(), lt, op.symbol());
            requireBoolean(b.right(), rt, op.symbol());
            return op == BinaryOp.AND ? new AndEvaluator(left, right) : new OrEvaluator(left, right);
        }
        if (op.isArithmetic()) {
            requireNumeric(b.left(), lt, op);
            requireNumeric(b.right(), rt, op);
            if (lt == ValueType.NULL || rt == ValueType.NULL) {
                return ConstantEvaluator.nullOf(lt == ValueType.NULL ? rt : lt);
            }
            return lt == ValueType.LONG && rt == ValueType.LONG
                    ? new LongArithmeticEvaluator(op, left, right)
                    : new DoubleArithmeticEvaluator(op, left, right);
        }
        if (lt == ValueType.NULL || rt == ValueType.NULL) {
            return ConstantEvaluator.nullOf(ValueType.BOOLEAN);
        }
        return new ComparisonEvaluator(op, left, right, comparator(b.left(), lt, b.right(), rt, op.symbol()));
    }

    private Evaluator between(Expr.Between b) throws QueryException {
        Evaluator operand = compileNode(b.operand());
        Evaluator low = compileNode(b.low());
        Evaluator high = compileNode(b.high());
        ValueType t = operand.type();
        if (t == ValueType.NULL) {
            return ConstantEvaluator.nullOf(ValueType.BOOLEAN);
        }
        ValueComparator lowComparator = low.type() == ValueType.NULL ? null
                : comparator(b.operand(), t, b.low(), low.type(), "BETWEEN");
        ValueComparator highComparator = high.type() == ValueType.NULL ? null
                : comparator(b.operand(), t, b.high(), high.type(), "BETWEEN");
        return new BetweenEvaluator(operand, low, high, lowComparator, highComparator, b.negated());
    }

    private Evaluator like(Expr.Like l) throws QueryException {
        Evaluator operand = compileNode(l.operand());
        String hint = "LIKE matches a string against a pattern such as 'abc%' (% any run, _ one character)";
        Object pattern = constant(l.pattern(), "a LIKE pattern", hint);
        if (pattern != null && !(pattern instanceof String)) {
            throw mismatch(l.pattern().position(), "the LIKE pattern " + describeValue(pattern) + " is not a string", hint);
        }
        if (operand.type() != ValueType.STRING && operand.type() != ValueType.NULL) {
            throw mismatch(l.operand().position(), "LIKE needs a string but " + describe(l.operand(), operand.type())
                    + " is not one", hint);
        }
        if (pattern == null || operand.type() == ValueType.NULL) {
            return ConstantEvaluator.nullOf(ValueType.BOOLEAN);
        }
        return new LikeEvaluator(operand, LikePattern.compile((String) pattern), l.negated());
    }

    private ValueComparator comparator(Expr left, ValueType lt, Expr right, ValueType rt, String op) throws QueryException {
        ValueComparator c = ValueComparator.of(lt, rt);
        if (c == null) {
            throw mismatch(right.position(), "cannot compare " + describe(left, lt) + " with " + describe(right, rt)
                    + " using " + op, "compare numbers with numbers, strings with strings and booleans with booleans, "
                    + "e.g. amount > 100 or country = 'FR'");
        }
        return c;
    }

    private void requireBoolean(Expr e, ValueType t, String op) throws QueryException {
        if (t != ValueType.BOOLEAN && t != ValueType.NULL) {
            throw mismatch(e.position(), op + " needs true/false operands but " + describe(e, t) + " is not one",
                    "combine conditions, e.g. amount > 100 " + (op.equals("NOT") ? "AND NOT online" : op + " online"));
        }
    }

    private void requireNumeric(Expr e, ValueType t, BinaryOp op) throws QueryException {
        if (!t.isNumeric() && t != ValueType.NULL) {
            throw mismatch(e.position(), "cannot apply '" + op.symbol() + "' to " + describe(e, t),
                    "arithmetic works on long and double values");
        }
    }

    /**
     * The value of a literal (or of minus a number literal), or a type_mismatch error naming {@code what}.
     * Null for the NULL literal.
     */
    Object constant(Expr e, String what, String hint) throws QueryException {
        if (e instanceof Expr.Literal l) {
            return l.value() instanceof Integer i ? Long.valueOf(i) : l.value() instanceof Float f ? Double.valueOf(f) : l.value();
        }
        if (e instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NEGATE && u.operand() instanceof Expr.Literal l) {
            if (l.value() instanceof Long v) {
                return -v;
            }
            if (l.value() instanceof Double v) {
                return -v;
            }
        }
        throw mismatch(e.position(), what + " must be a literal value", hint);
    }

    QueryException mismatch(int position, String detail, String hint) {
        return new QueryException(TYPE_MISMATCH, detail, text, position, hint);
    }

    /** How an operand is named in messages: {@code amount (double)}, {@code 'FR' (string)}, {@code an expression of type long}. */
    String describe(Expr e, ValueType t) {
        if (e instanceof Expr.FieldRef f) {
            return "field " + f.name() + " (" + typeName(t) + ")";
        }
        if (e instanceof Expr.Literal l) {
            return describeValue(l.value());
        }
        return "an expression of type " + typeName(t);
    }

    static String describeValue(Object v) {
        return switch (v) {
            case null -> "NULL";
            case String s -> "'" + s.replace("'", "''") + "' (string)";
            case Boolean b -> (b ? "TRUE" : "FALSE") + " (boolean)";
            case Long l -> l + " (long)";
            case Double d -> d + " (double)";
            default -> String.valueOf(v);
        };
    }

    static String typeName(ValueType t) {
        return t.name().toLowerCase(Locale.ROOT);
    }
}
