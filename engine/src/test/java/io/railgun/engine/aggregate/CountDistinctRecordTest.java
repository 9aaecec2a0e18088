package io.railgun.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.state.StateReader;
import io.railgun.engine.state.StateWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The value a COUNT DISTINCT record holds, and state saved before records held one: a key saved
 * with a record of one long (the count) and every value in its external state is restored exact,
 * and its values then leave as they should. Multiplicities past an int are saved and restored as
 * longs. (Round trips of the current layout, on random streams against an oracle, also with
 * multiplicities kept as past an int from 2: {@link ExternalStateRoundTripTest}.)
 */
class CountDistinctRecordTest {
    private static final int BASE = 1; // the node's population long comes first
    private static final int SLOT = 2;

    /** A string argument whose value the test sets. */
    private static final class StringArgument extends Evaluator {
        String value;

        StringArgument() {
            super(ValueType.STRING);
        }

        @Override
        public boolean eval(EventRow row) {
            stringBuffer = value.getBytes(StandardCharsets.UTF_8);
            stringOffset = 0;
            stringLength = stringBuffer.length;
            return true;
        }
    }

    /** An aggregator laid out at {@link #BASE} with room for {@link #SLOT}. */
    private static CountDistinctAggregator aggregator(StringArgument argument, int largeFrom) {
        CountDistinctAggregator a = new CountDistinctAggregator(argument, largeFrom);
        a.offset(BASE);
        a.ensureCapacity(SLOT + 1);
        return a;
    }

    @Test
    void multiplicitiesPastAnIntAreSavedAndRestoredAsLongs() {
        StringArgument argument = new StringArgument();
        CountDistinctAggregator a = aggregator(argument, Integer.MAX_VALUE);
        long[] record = new long[BASE + CountDistinctAggregator.WIDTH];
        String longValue = "a country longer than eight bytes"; // in the index, not the record
        long many = 5_000_000_000L;

        StateWriter out = new StateWriter();
        out.putInt(2);
        byte[] b = longValue.getBytes(StandardCharsets.UTF_8);
        out.putBytes(b, 0, b.length).putInt(-1).putLong(many);
        byte[] us = "US".getBytes(StandardCharsets.UTF_8);
        out.putBytes(us, 0, us.length).putInt(Integer.MAX_VALUE - 1);
        StateReader in = new StateReader().reset(out.buffer(), 0, out.length());
        a.loadExternal(record, 0, SLOT, in);
        assertThat(in.hasRemaining()).isFalse();
        record[BASE] = 2;

        argument.value = longValue;
        a.expire(record, 0, SLOT, 0, 0, null);
        a.expire(record, 0, SLOT, 0, 0, null);
        a.arrive(record, 0, SLOT, 0, 0, null);
        argument.value = "US";
        a.arrive(record, 0, SLOT, 0, 0, null); // Integer.MAX_VALUE now: saved as a long too
        assertThat(record[BASE]).isEqualTo(2);

        StateWriter saved = new StateWriter();
        a.saveExternal(SLOT, saved);
        StateReader back = new StateReader().reset(saved.buffer(), 0, saved.length());
        assertThat(back.getInt()).isEqualTo(2);
        java.util.Map<String, Long> counts = new java.util.HashMap<>();
        for (int i = 0; i < 2; i++) {
            int len = back.getBytesLength();
            String value = new String(back.buffer(), back.position() - len, len, StandardCharsets.UTF_8);
            assertThat(back.getInt()).as("the long form's mark").isEqualTo(-1);
            counts.put(value, back.getLong());
        }
        assertThat(counts).containsEntry(longValue, many - 1).containsEntry("US", (long) Integer.MAX_VALUE);

        // restored elsewhere, the values leave only with their last event
        CountDistinctAggregator c = aggregator(argument, 3);
        long[] copy = record.clone();
        c.loadExternal(copy, 0, SLOT, new StateReader().reset(saved.buffer(), 0, saved.length()));
        argument.value = "US";
        for (long i = 0; i < 5; i++) {
            c.expire(copy, 0, SLOT, 0, 0, null);
        }
        assertThat(copy[BASE]).isEqualTo(2);
        c.reset(SLOT);
        assertThat(c.distinctEntries()).isZero();
    }

    @Test
    void aKeySavedWithTheCountAloneIsRestoredWithEveryValueInTheIndex() {
        StringArgument argument = new StringArgument();
        CountDistinctAggregator a = aggregator(argument, Integer.MAX_VALUE);
        long[] record = new long[BASE + CountDistinctAggregator.WIDTH];

        // the external state of the old layout: int n, then each value's length, bytes and multiplicity
        StateWriter out = new StateWriter();
        out.putInt(3);
        for (String v : new String[] {"US", "a country longer than eight bytes", "FR"}) {
            byte[] b = v.getBytes(StandardCharsets.UTF_8);
            out.putBytes(b, 0, b.length).putInt(v.equals("US") ? 2 : 1);
        }
        StateReader in = new StateReader().reset(out.buffer(), 0, out.length());
        a.loadExternal(record, 0, SLOT, in);
        assertThat(in.hasRemaining()).isFalse();
        a.restoredWithoutRecord(record, BASE, SLOT);
        assertThat(record[BASE]).as("distinct values").isEqualTo(3);
        assertThat(a.distinctEntries()).as("all in the index").isEqualTo(3);

        // "DE" arrives while the key holds values in the index: it goes there too, not into the record
        argument.value = "DE";
        a.arrive(record, 0, SLOT, 0, 0, null);
        assertThat(record[BASE]).isEqualTo(4);
        assertThat(a.distinctEntries()).isEqualTo(4);
        for (String v : new String[] {"US", "FR", "a country longer than eight bytes", "US"}) {
            argument.value = v;
            a.expire(record, 0, SLOT, 0, 0, null);
        }
        assertThat(record[BASE]).as("DE is left").isEqualTo(1);
        argument.value = "DE";
        a.expire(record, 0, SLOT, 0, 0, null);
        assertThat(record[BASE]).isZero();
        assertThat(a.distinctEntries()).isZero();

        // with the index empty, the next value is held by the record
        argument.value = "IT";
        a.arrive(record, 0, SLOT, 0, 0, null);
        a.arrive(record, 0, SLOT, 0, 0, null);
        assertThat(record[BASE]).isEqualTo(1);
        assertThat(a.distinctEntries()).isZero();
        argument.value = "ES";
        a.arrive(record, 0, SLOT, 0, 0, null);
        assertThat(record[BASE]).isEqualTo(2);
        assertThat(a.distinctEntries()).as("a second value goes to the index").isEqualTo(1);
    }
}
