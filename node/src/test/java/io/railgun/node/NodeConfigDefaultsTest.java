package io.railgun.node;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NodeConfigDefaultsTest {
    @Test
    void oneProcessorUnitPerCoreButOneAndNeverNone() {
        assertThat(NodeConfig.defaultProcessors(1)).isEqualTo(1);
        assertThat(NodeConfig.defaultProcessors(2)).isEqualTo(1);
        assertThat(NodeConfig.defaultProcessors(4)).isEqualTo(3);
        assertThat(NodeConfig.defaults().processors())
                .isEqualTo(Math.max(1, Runtime.getRuntime().availableProcessors() - 1));
    }
}
