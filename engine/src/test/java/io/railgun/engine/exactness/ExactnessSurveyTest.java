package io.railgun.engine.exactness;

import io.railgun.engine.oracle.Coverage;
import io.railgun.engine.oracle.ExactnessRunner;
import io.railgun.engine.oracle.PaymentCaseGenerator;
import io.railgun.engine.oracle.StreamCase;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A survey, not a gate: runs {@code -Drailgun.exactness.survey=N} seeds per mode (from
 * {@code -Drailgun.exactness.surveySeed}, default 1) without stopping at the first failure, groups
 * the failing cases by the category of their first mismatch and prints one shrunk reproduction per
 * category. For finding every distinct bug at once; the properties stop at the first.
 */
class ExactnessSurveyTest {
    @Test
    @EnabledIfSystemProperty(named = "railgun.exactness.survey", matches = "\\d+")
    void survey() {
        int n = Integer.getInteger("railgun.exactness.survey");
        long first = Long.getLong("railgun.exactness.surveySeed", 1L);
        Coverage coverage = new Coverage();
        Map<String, List<String>> byCategory = new TreeMap<>();
        Map<String, StreamCase> example = new LinkedHashMap<>();
        Map<String, ExactnessRunner.Result> exampleResult = new LinkedHashMap<>();
        long start = System.nanoTime();
        for (ExactnessCheck.Mode mode : ExactnessCheck.Mode.values()) {
            for (long seed = first; seed < first + n; seed++) {
                StreamCase c = PaymentCaseGenerator.generate(seed, mode.settings);
                ExactnessRunner.Result r = new ExactnessRunner(ExactnessCheck.HARNESS, coverage).run(c);
                if (!r.exact()) {
                    String category = r.first().category();
                    byCategory.computeIfAbsent(category, k -> new ArrayList<>()).add(mode + ":" + seed);
                    example.putIfAbsent(category, c);
                    exampleResult.putIfAbsent(category, r);
                }
            }
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("[exactness survey] %d seeds x %d modes in %.1f s%n%s", n, ExactnessCheck.Mode.values().length,
                (System.nanoTime() - start) / 1e9, coverage.report()));
        byCategory.forEach((k, v) -> sb.append(String.format("  %-40s %5d failing cases, e.g. %s%n", k, v.size(), v.subList(0, Math.min(5, v.size())))));
        for (String category : example.keySet()) {
            sb.append("\n######## ").append(category).append('\n');
            sb.append(ExactnessCheck.report(example.get(category), exampleResult.get(category), byCategory.get(category).get(0), ExactnessCheck.HARNESS));
        }
        System.out.println(sb);
    }
}
