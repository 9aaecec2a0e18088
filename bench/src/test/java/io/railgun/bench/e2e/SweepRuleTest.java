package io.railgun.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SweepRuleTest {

    @Test
    void aStepPassesUnderTheSloWithoutErrorsAtTheRate() {
        assertThat(SweepRule.failure(10_000, 9_990, 0, 0, 120.0, 250)).isNull();
    }

    @Test
    void aStepFailsAtOrOverTheSlo() {
        assertThat(SweepRule.failure(10_000, 10_000, 0, 0, 250.0, 250)).contains("p99.9 250.0 ms");
        assertThat(SweepRule.failure(10_000, 10_000, 0, 0, 900.0, 250)).contains("not under 250 ms");
        assertThat(SweepRule.failure(10_000, 10_000, 0, 0, Double.NaN, 250)).contains("p99.9");
    }

    @Test
    void errorsAndUnsentEventsAndASlowInjectorFailAStep() {
        assertThat(SweepRule.failure(10_000, 10_000, 3, 0, 1.0, 250)).isEqualTo("3 errors");
        assertThat(SweepRule.failure(10_000, 10_000, 500, 500, 1.0, 250)).contains("could not take the rate");
        assertThat(SweepRule.failure(10_000, 9_400, 0, 0, 1.0, 250)).contains("under 95%");
        assertThat(SweepRule.failure(10_000, 9_500, 0, 0, 1.0, 250)).isNull();
    }

    @Test
    void aStepStartsOnlyIfItEndsWithinTheBudget() {
        // 30 s steps, 10 min budget
        assertThat(SweepRule.fits(0, 0, 10_000, 20_000, 600_000)).isTrue();
        assertThat(SweepRule.fits(570_000, 30_000, 10_000, 20_000, 600_000)).isTrue();
        assertThat(SweepRule.fits(571_000, 30_000, 10_000, 20_000, 600_000)).isFalse();
        // the last step took longer than its schedule (generation, drain): that is what counts
        assertThat(SweepRule.fits(500_000, 120_000, 10_000, 20_000, 600_000)).isFalse();
    }
}
