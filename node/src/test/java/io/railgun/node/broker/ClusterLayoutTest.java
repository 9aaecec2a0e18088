package io.railgun.node.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The port rule, the voters, the shared cluster id and the refusals of {@link ClusterLayout}. */
class ClusterLayoutTest {

    @Test
    void brokersOfALocalClusterFollowThePortRuleAndAgreeOnVotersAndClusterId() {
        ClusterLayout first = ClusterLayout.local(1, 3, 19092, "127.0.0.1", null);
        ClusterLayout third = ClusterLayout.local(3, 3, 19092, "127.0.0.1", null);
        assertThat(first.clientPort()).isEqualTo(19092);
        assertThat(first.controllerPort()).isEqualTo(19093);
        assertThat(third.clientPort()).isEqualTo(19112);
        assertThat(third.controllerPort()).isEqualTo(19113);
        assertThat(ClusterLayout.quorumVoters(third.voters()))
                .isEqualTo("1@127.0.0.1:19093,2@127.0.0.1:19103,3@127.0.0.1:19113");
        assertThat(first.voters()).isEqualTo(third.voters());
        assertThat(first.bootstrapServers()).isEqualTo("127.0.0.1:19092,127.0.0.1:19102,127.0.0.1:19112");
        assertThat(first.clusterId()).isEqualTo(third.clusterId()).hasSize(22);
        assertThat(ClusterLayout.local(1, 3, 29092, "127.0.0.1", null).clusterId())
                .as("another layout, another cluster").isNotEqualTo(first.clusterId());
        assertThat(first.internalReplication()).isEqualTo(3);
        assertThat(first.minInsyncReplicas()).isEqualTo(2);
        assertThat(first.isSingle()).isFalse();
    }

    @Test
    void smallerClustersKeepEveryCopyInSync() {
        ClusterLayout two = ClusterLayout.local(2, 2, 19092, "127.0.0.1", null);
        assertThat(two.internalReplication()).isEqualTo(2);
        assertThat(two.minInsyncReplicas()).isEqualTo(1);
        ClusterLayout five = ClusterLayout.local(5, 5, 19092, "127.0.0.1", null);
        assertThat(five.internalReplication()).isEqualTo(3);
        assertThat(five.minInsyncReplicas()).isEqualTo(2);
        ClusterLayout single = ClusterLayout.single("127.0.0.1", 9092);
        assertThat(single.isSingle()).isTrue();
        assertThat(single.clusterId()).isNull();
        assertThat(single.bootstrapServers()).isEqualTo("127.0.0.1:9092");
        assertThat(single.internalReplication()).isEqualTo(1);
    }

    @Test
    void votersAcrossMachinesGiveEachBrokerItsHostAndTheClientPortBelowItsController() {
        ClusterLayout b2 = ClusterLayout.ofVoters(2, "3@10.0.0.3:9093, 1@10.0.0.1:9093,2@10.0.0.2:9093", null);
        assertThat(b2.host()).isEqualTo("10.0.0.2");
        assertThat(b2.clientPort()).isEqualTo(9092);
        assertThat(b2.controllerPort()).isEqualTo(9093);
        assertThat(b2.voters()).extracting(ClusterLayout.Voter::id).containsExactly(1, 2, 3);
        assertThat(b2.bootstrapServers()).isEqualTo("10.0.0.1:9092,10.0.0.2:9092,10.0.0.3:9092");
        String id = "MkU3OEVBNTcwNTJENDM2Qg";
        assertThat(ClusterLayout.ofVoters(1, "1@h:9093", id).clusterId()).isEqualTo(id);
    }

    @Test
    void badLayoutsNameTheOptionToFix() {
        assertThatThrownBy(() -> ClusterLayout.local(4, 3, 19092, "127.0.0.1", null))
                .hasMessageContaining("--broker-id must be 1 to 3");
        assertThatThrownBy(() -> ClusterLayout.local(1, 10, 19092, "127.0.0.1", null))
                .hasMessageContaining("--cluster-size must be 1 to 9");
        assertThatThrownBy(() -> ClusterLayout.local(1, 3, 65_520, "127.0.0.1", null))
                .hasMessageContaining("--base-port 65520 leaves no room for 3 brokers");
        assertThatThrownBy(() -> ClusterLayout.ofVoters(4, "1@a:9093,2@b:9093", null))
                .hasMessageContaining("--broker-id 4 is not in --voters");
        for (String bad : List.of("1@a", "a@b:1", "1@:9093", "1@a:", "1@a:70000", "1@a:9093,1@b:9093")) {
            assertThatThrownBy(() -> ClusterLayout.ofVoters(1, bad, null)).as(bad).hasMessageContaining("--voters");
        }
        assertThatThrownBy(() -> ClusterLayout.local(1, 3, 19092, "127.0.0.1", "not-an-id"))
                .hasMessageContaining("--cluster-id 'not-an-id' is not a Kafka cluster id");
    }
}
