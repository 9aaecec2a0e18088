package io.railgun.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class E2eOptionsTest {

    @Test
    void sweepRunsTheLadderInShortStepsUnlessToldOtherwise() {
        E2eOptions o = E2eOptions.parse(new String[] {"--sweep"});
        assertThat(o.sweep()).isTrue();
        assertThat(o.rates()).isEqualTo(E2eOptions.SWEEP_RATES);
        assertThat(o.rates().getFirst()).isEqualTo(5_000.0);
        assertThat(o.warmupMs()).isEqualTo(10_000);
        assertThat(o.durationMs()).isEqualTo(20_000);
        assertThat(o.firstWarmupMs()).isEqualTo(60_000);

        E2eOptions given = E2eOptions.parse(new String[] {"--sweep", "--rates", "1000,2000", "--warmup", "30s"});
        assertThat(given.rates()).containsExactly(1000.0, 2000.0);
        assertThat(given.warmupMs()).isEqualTo(30_000);
        assertThat(given.durationMs()).isEqualTo(20_000);
    }

    @Test
    void ratesWithoutSweepRunEveryRate() {
        E2eOptions o = E2eOptions.parse(new String[] {"--rates", "5000,20000", "--first-warmup", "120s"});
        assertThat(o.sweep()).isFalse();
        assertThat(o.rates()).containsExactly(5000.0, 20000.0);
        assertThat(o.firstWarmupMs()).isEqualTo(120_000);
        assertThat(o.warmupMs()).isEqualTo(20_000);
        assertThat(o.resultsName()).isEqualTo("e2e-p51-child");
    }

    @Test
    void oneRateIsNoSweep() {
        E2eOptions o = E2eOptions.parse(new String[] {"--rate", "2000"});
        assertThat(o.sweep()).isFalse();
        assertThat(o.batch()).isEqualTo(1);
        assertThat(o.warmupMs()).isEqualTo(20_000);
        assertThat(o.firstWarmupMs()).isEqualTo(20_000);
        assertThat(E2eOptions.parse(new String[] {"--warmup", "5s", "--first-warmup", "90s"}).firstWarmupMs())
                .isEqualTo(90_000);
    }

    @Test
    void resultsNamesSayTheGcTheBatchAndTheSweep() {
        assertThat(E2eOptions.parse(new String[] {}).resultsName()).isEqualTo("e2e-p51-child");
        assertThat(E2eOptions.parse(new String[] {"--query", "ex1", "--node-java-opts", "-Xmx2g -XX:+UseZGC",
                "--batch", "100", "--sweep"}).resultsName()).isEqualTo("e2e-ex1-child-zgc-batch100-sweep");
        assertThat(E2eOptions.parse(new String[] {"--node-java-opts", "-XX:+UseParallelGC", "--label", "g1 vs"})
                .resultsName()).isEqualTo("e2e-p51-child-g1-vs");
        assertThat(E2eOptions.gcLabel("-XX:+UseG1GC -XX:MaxRAMPercentage=50")).isEqualTo("g1");
        assertThat(E2eOptions.gcLabel(E2eOptions.DEFAULT_NODE_JAVA_OPTS)).isEmpty();
    }

    @Test
    void theHttpFloorIsAChildWhoseRepliesAreNotChecked() {
        E2eOptions floor = E2eOptions.parse(new String[] {"--node", "http-floor-hop"});
        assertThat(floor.floor()).isTrue();
        assertThat(floor.checkEvery()).isZero();
        assertThat(floor.resultsName()).isEqualTo("e2e-p51-http-floor-hop");
        assertThat(E2eOptions.parse(new String[] {"--node", "child"}).floor()).isFalse();
        assertThat(E2eOptions.parse(new String[] {}).checkEvery()).isEqualTo(100);
        assertThatThrownBy(() -> E2eOptions.parse(new String[] {"--node", "http-floor", "--url", "http://x:1"}))
                .hasMessageContaining("drop --url");
    }

    @Test
    void plotNeedsNoRun() {
        E2eOptions o = E2eOptions.parse(new String[] {"--plot", "a.json,b.json", "--out", "x.png"});
        assertThat(o.plotFiles()).isEqualTo(List.of("a.json", "b.json"));
        assertThat(o.plotOut()).isEqualTo("x.png");
    }
}
