package io.railgun.node.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railgun.node.NodeConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The copies and in-sync minimum of the node's topics for each cluster size and setting. */
class TopicReplicationTest {

    @Test
    void autoIsThreeCopiesOrEveryBrokerOfASmallerCluster() {
        int auto = NodeConfig.AUTO_TOPIC_REPLICATION;
        assertThat(TopicReplication.factor(auto, 1)).isEqualTo((short) 1);
        assertThat(TopicReplication.factor(auto, 2)).isEqualTo((short) 2);
        assertThat(TopicReplication.factor(auto, 3)).isEqualTo((short) 3);
        assertThat(TopicReplication.factor(auto, 7)).isEqualTo((short) 3);
    }

    @Test
    void aNumberIsTakenAsItIsUnlessTheClusterHasFewerBrokers() {
        assertThat(TopicReplication.factor(1, 3)).isEqualTo((short) 1);
        assertThat(TopicReplication.factor(5, 5)).isEqualTo((short) 5);
        assertThatThrownBy(() -> TopicReplication.factor(3, 1))
                .hasMessage("--topic-replication 3 asks for more copies than the 1 broker(s) of the Kafka cluster; use at"
                        + " most 1, or auto (min(3, brokers))");
    }

    @Test
    void twoCopiesMustBeInSyncFromThreeCopiesOn() {
        assertThat(TopicReplication.minInsync((short) 1)).isEqualTo(1);
        assertThat(TopicReplication.minInsync((short) 2)).isEqualTo(1);
        assertThat(TopicReplication.minInsync((short) 3)).isEqualTo(2);
        assertThat(TopicReplication.configs((short) 3, Map.of("retention.ms", "-1")))
                .containsExactlyInAnyOrderEntriesOf(Map.of("retention.ms", "-1", "min.insync.replicas", "2"));
    }
}
