package io.railgun.engine.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The manifest's wire format: round trip, and what readers refuse. */
class SnapshotManifestTest {
    private static final SnapshotManifest M = new SnapshotManifest(7, 12_345, 1_700_000_000_000L, List.of(
            new SnapshotFile("state/000012.sst", 4096, 0xCAFEBABE),
            new SnapshotFile("reservoir/00000000000000000001.rsv", 1 << 20, -1)));

    @Test
    void roundTrips() {
        assertThat(SnapshotManifest.decode(M.encode())).isEqualTo(M);
        assertThat(M.totalBytes()).isEqualTo(4096 + (1 << 20));
    }

    @Test
    void refusesAnotherVersionACorruptByteAndTrailingBytes() {
        byte[] b = M.encode();
        b[4] = 2;
        assertThatThrownBy(() -> SnapshotManifest.decode(b)).hasMessageContaining("version 2");
        byte[] c = M.encode();
        c[20] ^= 1;
        assertThatThrownBy(() -> SnapshotManifest.decode(c)).hasMessageContaining("checksum");
        byte[] d = java.util.Arrays.copyOf(M.encode(), M.encode().length - 1);
        assertThatThrownBy(() -> SnapshotManifest.decode(d)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void namesCannotLeaveTheTaskDirectory() {
        for (String bad : List.of("../x", "state/../../etc/passwd", "/etc/passwd", "state/..", "state/.", "other/x",
                "state/a/b", "state/", "state\\x", "reservoir/a b")) {
            assertThat(SnapshotManifest.validName(bad)).as(bad).isFalse();
            assertThatThrownBy(() -> new SnapshotFile(bad, 1, 0)).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(SnapshotManifest.validName("state/MANIFEST-000005")).isTrue();
    }
}
