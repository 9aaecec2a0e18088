package io.railgun.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.aggregate.Aggregator;
import io.railgun.engine.aggregate.CountAggregator;
import io.railgun.engine.aggregate.MomentsAggregator;
import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.query.AggregateFunction;
import io.railgun.engine.state.InMemoryStateStore;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A shared moments state is found by the ids state was saved under when each function had its own
 * aggregator, so keys checkpointed before states were shared restore into it; its own id and the
 * other aggregators' ids still win.
 */
class SharedStateIdsTest {

    @Test
    void stateSavedUnderAFormerOwnersKeyRestoresIntoTheSharedAggregator() {
        KeyTable table = new KeyTable("by", new KeyEncoder(List.of()), new InMemoryStateStore().keyedState("by"));
        GroupByNode node = new GroupByNode("w|true|by", table, true);
        table.attach(node);
        Aggregator count = new CountAggregator(null);
        node.add(count, "g|COUNT()");
        MomentsAggregator moments = new MomentsAggregator(AggregateFunction.AVG, new Evaluator(ValueType.DOUBLE) {
            @Override
            public boolean eval(EventRow row) {
                return false;
            }
        });
        List<String> former = AggregatorFactory.formerOwners(
                        AggregatorFactory.stateName(AggregateFunction.AVG, ValueType.DOUBLE), ValueType.DOUBLE)
                .stream().map(f -> "g|" + f + "(amount)").toList();
        node.add(moments, "g|MOMENTS(amount)", former);

        assertThat(former).containsExactly("g|SUM(amount)", "g|AVG(amount)");
        assertThat(node.aggregatorById(StableId.of("g|MOMENTS(amount)"))).isSameAs(moments);
        assertThat(node.aggregatorById(StableId.of("g|SUM(amount)"))).isSameAs(moments);
        assertThat(node.aggregatorById(StableId.of("g|AVG(amount)"))).isSameAs(moments);
        assertThat(node.aggregatorById(StableId.of("g|COUNT()"))).isSameAs(count);
        assertThat(node.aggregatorById(StableId.of("g|STDDEV_SAMP(amount)"))).isNull();

        node.remove(count);
        assertThat(node.aggregatorById(StableId.of("g|AVG(amount)"))).as("after a removal shifts the ids").isSameAs(moments);
    }

    @Test
    void sumOfLongsKeepsItsOwnState() {
        assertThat(AggregatorFactory.stateName(AggregateFunction.SUM, ValueType.LONG)).isEqualTo("SUM");
        assertThat(AggregatorFactory.stateName(AggregateFunction.SUM, ValueType.DOUBLE)).isEqualTo("MOMENTS");
        assertThat(AggregatorFactory.stateName(AggregateFunction.STDDEV_SAMP, ValueType.DOUBLE)).isEqualTo("MOMENTS2");
        assertThat(AggregatorFactory.formerOwners("MOMENTS", ValueType.LONG)).containsExactly(AggregateFunction.AVG);
    }
}
