package io.railgun.bench.e2e;

import java.util.Locale;

/**
 * When a sweep (L2) stops: at the first rate that fails — events not sent within a request timeout
 * of the schedule's end (the node could not take the rate), any error, an injector that sent under
 * 95% of the asked rate, or a p99.9 at or over the SLO — and before a step that would end past the
 * sweep's time budget. The highest rate that passed is L2's figure. Stateless.
 */
final class SweepRule {
    /** Below this share of the asked rate actually sent, the step failed (the injector could not keep up). */
    static final double MIN_SENT_SHARE = 0.95;

    private SweepRule() {}

    /** Why a step failed, or null when it passed. */
    static String failure(double rate, double achievedRate, long errors, long unsent, double p999Ms, double sloMs) {
        if (unsent > 0) {
            return String.format(Locale.ROOT, "the node could not take the rate (%,d events not sent in time)", unsent);
        }
        if (errors > 0) {
            return String.format(Locale.ROOT, "%,d errors", errors);
        }
        if (achievedRate < MIN_SENT_SHARE * rate) {
            return String.format(Locale.ROOT, "the injector sent %,.0f ev/s, under %.0f%% of the rate", achievedRate,
                    100 * MIN_SENT_SHARE);
        }
        if (!(p999Ms < sloMs)) {
            return String.format(Locale.ROOT, "p99.9 %.1f ms, not under %.0f ms", p999Ms, sloMs);
        }
        return null;
    }

    /** Why a step failed, or null when it passed. */
    static String failure(RunFigures f, double sloMs) {
        return failure(f.rate(), f.achievedRate(), f.errors(), f.unsent(), f.ms(99.9), sloMs);
    }

    /**
     * Whether the next step fits in the budget: {@code elapsedMs} since the sweep's start, plus what it
     * will take — the last step's wall time, or the next one's warm-up and measured part if longer —
     * is at most {@code budgetMs}.
     */
    static boolean fits(long elapsedMs, long lastStepMs, long warmupMs, long durationMs, long budgetMs) {
        return elapsedMs + Math.max(lastStepMs, warmupMs + durationMs) <= budgetMs;
    }
}
