package io.railgun.engine.expr;

import io.railgun.engine.event.EventRow;

/**
 * {@code x [NOT] IN (...)} with SQL three-valued logic, shared by the typed lists: a NULL operand is
 * NULL; a match is TRUE (FALSE when negated); no match with a NULL in the list is NULL; otherwise
 * FALSE (TRUE when negated). Subclasses only say whether the operand's value is in their list.
 */
abstract class InListEvaluator extends Evaluator {
    protected final Evaluator operand;
    private final boolean listHasNull;
    private final boolean negated;

    InListEvaluator(Evaluator operand, boolean listHasNull, boolean negated) {
        super(ValueType.BOOLEAN);
        this.operand = operand;
        this.listHasNull = listHasNull;
        this.negated = negated;
    }

    /** Whether the operand's current (non-null) value is one of the list's items. */
    abstract boolean contains();

    @Override
    public final boolean eval(EventRow row) {
        if (!operand.eval(row)) {
            return false;
        }
        if (contains()) {
            longValue = negated ? 0 : 1;
            return true;
        }
        if (listHasNull) {
            return false;
        }
        longValue = negated ? 1 : 0;
        return true;
    }
}
