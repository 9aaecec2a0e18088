package io.railgun.engine.plan;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.window.WindowListener;
import java.util.ArrayList;
import java.util.List;

/**
 * The Filter operator: forwards the window's events whose WHERE predicate is TRUE (NULL does not
 * pass) to its group-by nodes. A window without WHERE has one filter with no predicate. The
 * predicate is deterministic, so an event that passed on arrival passes again on expiry.
 */
final class FilterNode implements WindowListener {
    private final Evaluator predicate;
    private final List<GroupByNode> groups = new ArrayList<>();
    private GroupByNode[] dispatch = new GroupByNode[0];

    FilterNode(Evaluator predicate) {
        this.predicate = predicate;
    }

    void add(GroupByNode g) {
        groups.add(g);
        dispatch = groups.toArray(new GroupByNode[0]);
    }

    boolean remove(GroupByNode g) {
        groups.remove(g);
        dispatch = groups.toArray(new GroupByNode[0]);
        return groups.isEmpty();
    }

    @Override
    public void arrive(long timestamp, long seq, EventRow row) {
        if (predicate == null || predicate.test(row)) {
            for (GroupByNode g : dispatch) {
                g.arrive(timestamp, seq, row);
            }
        }
    }

    @Override
    public void expire(long timestamp, long seq, EventRow row) {
        if (predicate == null || predicate.test(row)) {
            for (GroupByNode g : dispatch) {
                g.expire(timestamp, seq, row);
            }
        } else {
            for (GroupByNode g : dispatch) {
                g.tailPassed(seq); // where the tail is, though the event was not the node's
            }
        }
    }
}
