package io.railgun.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railgun.node.assignment.CopyRole;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cluster record's wire format: round trip, and refusals of what a reader does not understand. */
class NodeStatusDescriptorTest {
    static final NodeStatus STATUS = new NodeStatus("node-é", "https://10.0.0.1:7070", 1_700_000_000_000L,
            1_700_000_005_000L, 3, List.of(
                    CopyStatus.running("payments", "card", 7, CopyRole.ACTIVE, 12, 3400, 0),
                    new CopyStatus("payments", "merchant", 0, CopyRole.REPLICA, -1, -1, -1, 4096, 1 << 20),
                    CopyStatus.running("logins", "user", 2, CopyRole.STALE, -1, 88, 61_000)));

    @Test
    void roundTrips() {
        byte[] bytes = NodeStatusDescriptor.encode(STATUS);
        assertThat(bytes[0]).isEqualTo(NodeStatusDescriptor.VERSION);
        assertThat(NodeStatusDescriptor.decode(bytes)).isEqualTo(STATUS);
        NodeStatus empty = new NodeStatus("n", "http://h:1", 1, 2, 0, List.of());
        assertThat(NodeStatusDescriptor.decode(NodeStatusDescriptor.encode(empty))).isEqualTo(empty);
    }

    @Test
    void refusesAnotherVersionTruncationTrailingBytesAndUnknownRoles() {
        byte[] bytes = NodeStatusDescriptor.encode(STATUS);
        byte[] newer = bytes.clone();
        newer[0] = 2;
        assertThatThrownBy(() -> NodeStatusDescriptor.decode(newer)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("version 2");
        assertThatThrownBy(() -> NodeStatusDescriptor.decode(Arrays.copyOf(bytes, bytes.length - 3)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("truncated");
        assertThatThrownBy(() -> NodeStatusDescriptor.decode(Arrays.copyOf(bytes, bytes.length + 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("trailing");
        assertThatThrownBy(() -> NodeStatusDescriptor.decode(new byte[0])).isInstanceOf(IllegalArgumentException.class);
        // the role byte of the first copy: after the header and the copy's names and partition
        NodeStatus one = new NodeStatus("n", "u", 1, 2, 1, List.of(CopyStatus.running("s", "p", 0, CopyRole.ACTIVE, 0, 0,
                0)));
        byte[] b = NodeStatusDescriptor.encode(one);
        int roleAt = 1 + (2 + 1) + (2 + 1) + 8 + 8 + 4 + 4 + (2 + 1) + (2 + 1) + 4;
        assertThat(b[roleAt]).isZero();
        b[roleAt] = 9;
        assertThatThrownBy(() -> NodeStatusDescriptor.decode(b)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown role 9");
    }
}
