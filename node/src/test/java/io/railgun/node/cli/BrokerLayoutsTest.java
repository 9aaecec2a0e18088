package io.railgun.node.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The defaults {@link BrokerLayouts} picks: one broker as before, or a data directory per broker of a cluster. */
class BrokerLayoutsTest {

    private static BrokerLayouts.Placed resolve(String... keyValues) {
        var flags = new ConfigLayer.Builder(BrokerSettings.ALL);
        for (int i = 0; i < keyValues.length; i += 2) {
            flags.putKey(keyValues[i], keyValues[i + 1], "--" + keyValues[i]);
        }
        return BrokerLayouts.resolve(List.of(flags.build(), ConfigLayer.EMPTY));
    }

    @Test
    void withoutClusterOptionsItIsTheSingleBrokerOfBefore() {
        BrokerLayouts.Placed placed = resolve();
        assertThat(placed.layout().isSingle()).isTrue();
        assertThat(placed.layout().clientPort()).isEqualTo(BrokerSettings.DEFAULT_PORT);
        assertThat(placed.layout().host()).isEqualTo("127.0.0.1");
        assertThat(placed.dataDir()).isEqualTo(Path.of("data", "broker"));
    }

    @Test
    void eachBrokerOfAClusterGetsItsOwnDefaultDataDirectoryAndTheDefaultBasePort() {
        BrokerLayouts.Placed placed = resolve("broker-id", "3", "cluster-size", "3");
        assertThat(placed.dataDir()).isEqualTo(Path.of("data", "broker-3"));
        assertThat(placed.layout().clientPort()).isEqualTo(19112);
        assertThat(resolve("broker-id", "3", "cluster-size", "3", "data-dir", "/tmp/x").dataDir())
                .isEqualTo(Path.of("/tmp/x"));
        assertThat(resolve("broker-id", "1", "cluster-size", "3", "host", "10.1.2.3").layout().bootstrapServers())
                .isEqualTo("10.1.2.3:19092,10.1.2.3:19102,10.1.2.3:19112");
    }
}
