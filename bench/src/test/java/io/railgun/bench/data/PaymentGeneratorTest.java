package io.railgun.bench.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.event.EventRowWriter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PaymentGeneratorTest {

    /**
     * Event time keeps pace with the simulated rate at the e2e rates too: 200,000 events at R ev/s
     * span 200,000 / R seconds (exponential gaps: within 2%). Rounding each gap to a millisecond,
     * as the generator once did, gave 36 ms instead of 10 s at 20,000 ev/s.
     */
    @ParameterizedTest
    @ValueSource(doubles = {0.1, 500, 5_000, 20_000, 100_000})
    void eventTimeAdvancesAtTheSimulatedRate(double rate) {
        PaymentGenerator.Options options = PaymentGenerator.Options.defaults().withRate(rate);
        PaymentGenerator generator = new PaymentGenerator(options);
        EventRowWriter w = new EventRowWriter();
        EventRow row = new EventRow();
        int n = 200_000;
        long last = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            generator.next(w);
            long ts = row.wrap(w.buffer(), 0).getLong(1);
            assertThat(ts).isGreaterThanOrEqualTo(last); // in order without an out-of-order fraction
            last = ts;
        }
        double spanS = (last - options.startMs()) / 1000.0;
        assertThat(spanS).isCloseTo(n / rate, within(0.02 * n / rate));
    }
}
