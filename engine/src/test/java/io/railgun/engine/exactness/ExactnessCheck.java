package io.railgun.engine.exactness;

import io.railgun.engine.oracle.CaseDump;
import io.railgun.engine.oracle.CaseMinimizer;
import io.railgun.engine.oracle.Coverage;
import io.railgun.engine.oracle.ExactnessRunner;
import io.railgun.engine.oracle.PaymentCaseGenerator;
import io.railgun.engine.oracle.StreamCase;

/**
 * Runs a case against LocalStream and the oracle; on a mismatch, shrinks the case and fails with a
 * readable minimal reproduction.
 */
final class ExactnessCheck {
    static final LocalStreamHarness HARNESS = new LocalStreamHarness();

    /** The generator settings of each property, by the name used to replay a seed. */
    enum Mode {
        REPLIES(PaymentCaseGenerator.Settings.defaults().withMagnitudes(PaymentCaseGenerator.Magnitudes.PAYMENT)),
        EXTREME(PaymentCaseGenerator.Settings.defaults().withMagnitudes(PaymentCaseGenerator.Magnitudes.EXTREME)),
        REMOVALS(PaymentCaseGenerator.Settings.defaults().withRemovals(true)),
        READS(PaymentCaseGenerator.Settings.defaults().withReads(4)),
        LONG(PaymentCaseGenerator.Settings.defaults().withEvents(2000, 4000).withReads(2));

        final PaymentCaseGenerator.Settings settings;

        Mode(PaymentCaseGenerator.Settings settings) {
            this.settings = settings;
        }
    }

    private ExactnessCheck() {}

    static void assertExact(long seed, Mode mode, Coverage coverage) {
        assertExact(seed, mode, coverage, HARNESS);
    }

    /** The same check with another harness (e.g. tasks over the on-disk reservoir). */
    static void assertExact(long seed, Mode mode, Coverage coverage, LocalStreamHarness harness) {
        StreamCase c = PaymentCaseGenerator.generate(seed, mode.settings);
        ExactnessRunner.Result r = new ExactnessRunner(harness, coverage).run(c);
        if (!r.exact()) {
            throw new AssertionError(report(c, r, "-Drailgun.exactness.seed=" + seed + " -Drailgun.exactness.mode=" + mode, harness));
        }
    }

    static void assertExact(StreamCase c, Coverage coverage) {
        ExactnessRunner.Result r = new ExactnessRunner(HARNESS, coverage).run(c);
        if (!r.exact()) {
            throw new AssertionError(report(c, r, null, HARNESS));
        }
    }

    static String report(StreamCase c, ExactnessRunner.Result r, String replay, LocalStreamHarness harness) {
        ExactnessRunner quiet = new ExactnessRunner(harness, null);
        CaseMinimizer.Minimized min = new CaseMinimizer(quiet, 400, 20_000).minimize(c, r);
        boolean freshFails = !quiet.run(min.minimal(), true).exact();
        StringBuilder sb = new StringBuilder();
        sb.append("LocalStream disagrees with the oracle.\n");
        sb.append("original case ").append(c).append("\n  first mismatch: ").append(r.first()).append("\n");
        if (replay != null) {
            sb.append("  replay: ").append(replay).append(" (ExactnessReplayTest)\n");
        }
        sb.append("\n===== minimal reproduction (shrunk in ").append(min.runs()).append(" runs) =====\n");
        sb.append(CaseDump.describe(min.minimal()));
        sb.append("first mismatch: ").append(min.result().first()).append('\n');
        for (int i = 1; i < Math.min(6, min.result().mismatches().size()); i++) {
            sb.append("also:           ").append(min.result().mismatches().get(i)).append('\n');
        }
        sb.append(min.result().firstMismatchContext());
        sb.append("(also fails when every event has its own row buffer: ").append(freshFails ? "yes" : "NO - suspect the engine keeps the caller's row")
                .append(")\n");
        return sb.toString();
    }
}
