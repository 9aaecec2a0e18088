package io.railgun.node.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railgun.node.assignment.TaskId;
import io.railgun.node.frontend.ApiException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The internal paths both ways, the Range header, and what the server refuses. */
class TransferPathTest {
    static final TaskId T = new TaskId("railgun.s.pay.3.card", 7);

    @Test
    void buildsWhatItParses() {
        assertThat(TransferPath.parse(TransferPath.manifest(T))).isEqualTo(new TransferPath(T, -1, null));
        assertThat(TransferPath.parse(TransferPath.file(T, 42, "state/000012.sst")))
                .isEqualTo(new TransferPath(T, 42, "state/000012.sst"));
    }

    @Test
    void refusesWhatIsNotOneOfItsShapes() {
        String base = "/internal/v1/tasks/" + T.topic() + "/7";
        for (String bad : List.of("/internal/v1/tasks/", base, base + "/snapshots/x/files/state/a",
                "/internal/v1/tasks/a b/0/snapshot", "/internal/v1/tasks/t/-1/snapshot", "/internal/v1/tasks/../0/snapshot",
                base + "/snapshot/extra")) {
            assertThatThrownBy(() -> TransferPath.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
        for (String traversal : List.of(base + "/snapshots/1/files/state/../x", base + "/snapshots/1/files/../../etc",
                base + "/snapshots/1/files/state/%2e%2e", base + "/snapshots/1/files/etc/passwd")) {
            assertThatThrownBy(() -> TransferPath.parse(traversal)).as(traversal)
                    .isInstanceOf(TransferPath.InvalidFileName.class);
        }
    }

    @Test
    void rangesAreOneSpanWithinTheFileAndAtMostTheServedMaximum() {
        assertThat(SnapshotServer.range("bytes=0-99", 1000)).containsExactly(0, 100);
        assertThat(SnapshotServer.range("bytes=900-", 1000)).containsExactly(900, 1000);
        assertThat(SnapshotServer.range("bytes=900-5000", 1000)).containsExactly(900, 1000);
        assertThat(SnapshotServer.range(null, 1000)).containsExactly(0, 1000);
        assertThat(SnapshotServer.range("bytes=0-" + Long.MAX_VALUE, 1000)).containsExactly(0, 1000);
        long big = 100L << 20;
        assertThat(SnapshotServer.range("bytes=0-", big)).containsExactly(0, SnapshotServer.MAX_RANGE_BYTES);
        assertThat(status(() -> SnapshotServer.range(null, big))).isEqualTo("400 range_required");
        assertThat(status(() -> SnapshotServer.range("bytes=1000-1001", 1000))).isEqualTo("416 range_not_satisfiable");
        assertThat(status(() -> SnapshotServer.range("bytes=5-2", 1000))).isEqualTo("416 range_not_satisfiable");
        assertThat(status(() -> SnapshotServer.range("bytes=0-1,5-6", 1000))).isEqualTo("400 invalid_range");
        assertThat(status(() -> SnapshotServer.range("items=0-1", 1000))).isEqualTo("400 invalid_range");
        assertThat(status(() -> SnapshotServer.range("bytes=-5", 1000))).isEqualTo("400 invalid_range");
    }

    private static String status(Runnable r) {
        try {
            r.run();
            return "no refusal";
        } catch (ApiException e) {
            return e.status() + " " + e.code();
        }
    }
}
