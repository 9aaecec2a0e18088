package io.railgun.bench.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The short fault suite as a test, tagged {@code faults} and left out of {@code ./verify} (bench's
 * surefire excludes the tag unless {@code -Dfaults.excluded=} is given): brokers and nodes are child
 * processes for about 3 minutes. Same as {@code bench/run faults --short}; docs/distribution.md.
 */
@Tag("faults")
class FaultSuiteTest {
    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void theShortSuiteIsExact() throws Exception {
        Path root = Path.of("").toAbsolutePath().getParent(); // surefire runs in bench/
        assertThat(FaultSuite.execute(new String[] {"--short"}, root)).as("exit code of the fault suite").isZero();
    }
}
