package io.railgun.node.assignment.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railgun.node.assignment.CopyRole;
import io.railgun.node.assignment.HeldCopy;
import io.railgun.node.assignment.MemberAssignment;
import io.railgun.node.assignment.MemberAssignment.PeerCopy;
import io.railgun.node.assignment.MemberInfo;
import io.railgun.node.assignment.TaskId;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AssignorDescriptorsTest {
    private static final TaskId A0 = new TaskId("railgun.s.paiements.1.carte", 0);
    private static final TaskId A7 = new TaskId("railgun.s.paiements.1.carte", 7);
    private static final TaskId B3 = new TaskId("railgun.s.z\u00fcge.2.h\u00e4ndler", 3);

    @Test
    void subscriptionRoundTrip() {
        MemberInfo info = new MemberInfo("m-1", "n\u00f6de-2", "https://10.0.0.2:7071", 3, Integer.MAX_VALUE, List.of(
                new HeldCopy(A0, CopyRole.ACTIVE, 1234567890123L),
                new HeldCopy(B3, CopyRole.REPLICA, -1),
                new HeldCopy(A7, CopyRole.STALE, 0)));
        ByteBuffer data = SubscriptionDescriptor.encode(info);
        assertThat(data.get(0)).isEqualTo(SubscriptionDescriptor.VERSION);
        assertThat(SubscriptionDescriptor.decode("m-1", data)).isEqualTo(info);
        // decoding does not consume the caller's buffer
        assertThat(SubscriptionDescriptor.decode("m-1", data)).isEqualTo(info);
        // 15 bytes per copy once the topics are in the table
        int two = SubscriptionDescriptor.encode(withHeld(info, 2)).remaining();
        int three = SubscriptionDescriptor.encode(withHeld(info, 3)).remaining();
        assertThat(three - two).isEqualTo(15);
    }

    private static MemberInfo withHeld(MemberInfo info, int n) {
        List<HeldCopy> held = List.of(new HeldCopy(A0, CopyRole.ACTIVE, 1), new HeldCopy(A7, CopyRole.STALE, 2),
                new HeldCopy(new TaskId(A0.topic(), 9), CopyRole.REPLICA, 3));
        return new MemberInfo(info.memberId(), info.nodeId(), info.nodeUrl(), info.unit(), info.budget(), held.subList(0, n));
    }

    @Test
    void subscriptionWithoutCopies() {
        MemberInfo info = new MemberInfo("m", "n", "", 0, 0, List.of());
        assertThat(SubscriptionDescriptor.decode("m", SubscriptionDescriptor.encode(info))).isEqualTo(info);
    }

    @Test
    void subscriptionOfAnotherVersionOrTruncatedOrMissingIsRefused() {
        ByteBuffer data = SubscriptionDescriptor.encode(new MemberInfo("m", "n", "u", 0, 1, List.of(new HeldCopy(A0, CopyRole.ACTIVE, 5))));
        ByteBuffer future = ByteBuffer.allocate(data.remaining()).put(data.duplicate()).flip();
        future.put(0, (byte) 2);
        assertThatThrownBy(() -> SubscriptionDescriptor.decode("m-9", future))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("m-9").hasMessageContaining("version 2").hasMessageContaining("reads version 1");
        ByteBuffer truncated = data.duplicate().limit(data.limit() - 3);
        assertThatThrownBy(() -> SubscriptionDescriptor.decode("m-9", truncated))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("malformed");
        assertThatThrownBy(() -> SubscriptionDescriptor.decode("m-9", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no railgun subscription data");
    }

    @Test
    void assignmentRoundTrip() {
        PeerCopy b = new PeerCopy("b", "https://b:7071", CopyRole.REPLICA, 77);
        PeerCopy c = new PeerCopy("c", "https://c:7071", CopyRole.STALE, 12);
        MemberAssignment plan = new MemberAssignment(List.of(A0), List.of(A7, B3),
                Map.of(A0, List.of(b, c), B3, List.of(c), A7, List.of()));
        ByteBuffer data = AssignmentDescriptor.encode(plan, true, Set.of(A0.topic(), "railgun.s.autre.3.x"));
        assertThat(data.get(0)).isEqualTo(AssignmentDescriptor.VERSION);
        assertThat(AssignmentDescriptor.decode(data, List.of(A0))).isEqualTo(plan);
        AssignmentDescriptor.Handed handed = AssignmentDescriptor.read(data, List.of(A0));
        assertThat(handed.followUp()).isTrue();
        assertThat(handed.subscription()).containsExactlyInAnyOrder(A0.topic(), "railgun.s.autre.3.x");
        AssignmentDescriptor.Handed none = AssignmentDescriptor.read(null, List.of(A0));
        assertThat(none.plan()).isEqualTo(new MemberAssignment(List.of(A0), List.of(), Map.of()));
        assertThat(none.followUp()).isFalse();
        assertThat(none.subscription()).isNull();
    }

    @Test
    void aPlanIsFinalUnlessItLeftMovesOutOrPredatesASubscribedTopic() {
        MemberAssignment plan = new MemberAssignment(List.of(A0), List.of(), Map.of());
        Set<String> both = Set.of(A0.topic(), B3.topic());
        assertThat(AssignmentDescriptor.read(AssignmentDescriptor.encode(plan, false, both), List.of(A0)).rebalanceDue(both, true))
                .isNull();
        assertThat(AssignmentDescriptor.read(AssignmentDescriptor.encode(plan, false, both), List.of(A0))
                .rebalanceDue(Set.of(A0.topic()), true)).as("a topic the member no longer reads").isNull();
        assertThat(AssignmentDescriptor.read(AssignmentDescriptor.encode(plan, true, both), List.of(A0)).rebalanceDue(both, true))
                .contains("follow-up");
        assertThat(AssignmentDescriptor.read(AssignmentDescriptor.encode(plan, true, both), List.of(A0)).rebalanceDue(both, false))
                .as("moves left out of a later plan: their owner's rejoin starts the follow-up").isNull();
        assertThat(AssignmentDescriptor.read(AssignmentDescriptor.encode(plan, false, Set.of(A0.topic())), List.of(A0))
                .rebalanceDue(both, false)).contains("subscribed");
        assertThat(AssignmentDescriptor.read(null, List.of(A0)).rebalanceDue(both, true)).isNull();
    }

    @Test
    void assignmentOfAnotherVersionOrTruncatedIsRefused() {
        ByteBuffer data = AssignmentDescriptor.encode(new MemberAssignment(List.of(), List.of(A7),
                Map.of(A7, List.of(new PeerCopy("b", "u", CopyRole.ACTIVE, 1)))), true, Set.of(B3.topic()));
        ByteBuffer future = ByteBuffer.allocate(data.remaining()).put(data.duplicate()).flip();
        future.put(0, (byte) 9);
        assertThatThrownBy(() -> AssignmentDescriptor.decode(future, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("version 9");
        for (int cut = 1; cut < data.remaining(); cut++) {
            ByteBuffer truncated = data.duplicate().limit(data.limit() - cut);
            assertThatThrownBy(() -> AssignmentDescriptor.decode(truncated, List.of()))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
