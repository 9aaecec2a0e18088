package io.railgun.engine.exactness;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Replays one generated case: {@code -Drailgun.exactness.seed=N [-Drailgun.exactness.mode=REPLIES|EXTREME|REMOVALS|READS]}
 * (the seed and mode a failing property prints).
 */
class ExactnessReplayTest {
    @Test
    @EnabledIfSystemProperty(named = "railgun.exactness.seed", matches = "-?\\d+")
    void replay() {
        long seed = Long.parseLong(System.getProperty("railgun.exactness.seed"));
        ExactnessCheck.Mode mode = ExactnessCheck.Mode.valueOf(System.getProperty("railgun.exactness.mode", "REPLIES"));
        ExactnessCheck.assertExact(seed, mode, null);
    }
}
