package io.railgun.node.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.snapshot.FileChecksum;
import io.railgun.engine.snapshot.SnapshotFixture;
import io.railgun.engine.snapshot.SnapshotManifest;
import io.railgun.engine.snapshot.TaskSnapshot;
import io.railgun.engine.task.TaskOptions;
import io.railgun.engine.task.TaskProcessor;
import io.railgun.node.assignment.TaskId;
import io.railgun.node.recovery.TaskRecovery.Outcome;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Peer recovery end to end over the node's HTTP server: a task copied from a peer (real snapshot,
 * real endpoints, real JDK HTTP client) and resumed from the copied checkpoint answers exactly as
 * the peer did and as brute force says; a stale copy fetches only what changed; a broken transfer
 * resumes where it broke; a corrupted byte is caught by the CRC32C and the file fetched again; a
 * failed copy leaves the old copy untouched; path traversal and strangers are refused.
 */
@Timeout(180)
class PeerRecoveryTest {
    static final String ADMIN = "admin-token-0123456789";
    static final TaskId TASK = PeerNode.TASK;
    static final int PIECE = 16 * 1024;

    final List<long[]> input = SnapshotFixture.input(40_000, 7);
    final List<List<Object>> peerReplies = new ArrayList<>();
    final List<PeerRecovery> recoveries = new ArrayList<>();
    Path root;
    PeerNode peer;

    @BeforeEach
    void startPeer() throws Exception {
        root = Files.createTempDirectory("railgun-peer-recovery");
        peer = new PeerNode(root.resolve("a"), ADMIN);
        peerReplies.addAll(peer.process(input, 0, 20_000));
    }

    @AfterEach
    void stop() throws Exception {
        recoveries.forEach(PeerRecovery::close);
        peer.close();
        TaskSnapshot.deleteTree(root);
    }

    PeerRecovery recovery(PeerTransport transport) {
        PeerRecovery r = new PeerRecovery(RecoverySettings.defaults().withPieceBytes(PIECE), transport);
        recoveries.add(r);
        return r;
    }

    Outcome recover(PeerRecovery r, Path taskDir) throws Exception {
        return r.recover(TASK, taskDir, List.of(peer.copy("a"))).get();
    }

    @Test
    void aTaskCopiedFromAPeerResumesWithExactReplies() throws Exception {
        PeerRecovery r = recovery(new HttpPeerTransport(ADMIN));
        Path b = root.resolve("b/task");
        Outcome o = recover(r, b);
        assertThat(o.copied()).isTrue();
        assertThat(o.fromNode()).isEqualTo("a");
        assertThat(o.checkpointOffset()).isBetween(1L, 20_000L);
        assertThat(o.bytesCopied()).isEqualTo(bytesIn(b)).isGreaterThan(100_000);
        assertThat(r.metrics().started()).isEqualTo(1);
        assertThat(r.metrics().completed()).isEqualTo(1);
        assertThat(r.metrics().bytesCopied()).isEqualTo(o.bytesCopied());
        assertThat(r.metrics().inProgress()).isEmpty();
        assertThat(Files.exists(SnapshotCopier.sibling(b, ".recovering"))).isFalse();
        peerReplies.addAll(peer.process(input, 20_000, 30_000));
        resumesExactly(b, o.checkpointOffset(), 30_000);
    }

    @Test
    void aStaleCopyFetchesOnlyWhatChanged() throws Exception {
        PeerRecovery r = recovery(new HttpPeerTransport(ADMIN));
        Path b = root.resolve("b/task");
        Outcome first = recover(r, b);
        peerReplies.addAll(peer.process(input, 20_000, 40_000));
        Outcome second = recover(r, b);
        long total = bytesIn(b);
        System.out.printf("[stale copy] first copy %,d bytes; second: %,d of %,d bytes fetched, %,d kept%n",
                first.bytesCopied(), second.bytesCopied(), total, r.metrics().bytesReused());
        assertThat(second.checkpointOffset()).isGreaterThan(first.checkpointOffset());
        assertThat(r.metrics().bytesReused()).isGreaterThan(0);
        assertThat(second.bytesCopied() + r.metrics().bytesReused()).isEqualTo(total);
        assertThat(second.bytesCopied()).isLessThan(total);
        resumesExactly(b, second.checkpointOffset(), 40_000);
    }

    @Test
    void aBrokenTransferResumesWhereItBroke() throws Exception {
        AtomicBoolean broke = new AtomicBoolean();
        List<String> requests = new CopyOnWriteArrayList<>();
        PeerTransport http = new HttpPeerTransport(ADMIN);
        PeerTransport breaking = new Wrapper(http) {
            @Override
            public byte[] range(String url, TaskId task, long id, String file, long offset, int length)
                    throws IOException, InterruptedException {
                requests.add(file + "@" + offset);
                if (file.startsWith("reservoir/") && offset == 2L * PIECE && broke.compareAndSet(false, true)) {
                    throw new IOException("connection reset (test)");
                }
                return super.range(url, task, id, file, offset, length);
            }
        };
        PeerRecovery r = recovery(breaking);
        Path b = root.resolve("b/task");
        Outcome o = recover(r, b);
        assertThat(broke).isTrue();
        assertThat(o.copied()).isTrue();
        // resumed at the piece that broke: no byte fetched twice
        assertThat(o.bytesCopied()).isEqualTo(bytesIn(b));
        String brokeAt = requests.stream().filter(q -> q.startsWith("reservoir/") && q.endsWith("@" + 2L * PIECE))
                .findFirst().orElseThrow();
        assertThat(requests.stream().filter(brokeAt::equals)).hasSize(2);
        assertThat(requests.stream().filter(q -> q.equals(brokeAt.replace("@" + 2L * PIECE, "@0")))).hasSize(1);
        peerReplies.addAll(peer.process(input, 20_000, 25_000));
        resumesExactly(b, o.checkpointOffset(), 25_000);
    }

    @Test
    void aCorruptedByteIsCaughtByTheChecksumAndRefetched() throws Exception {
        List<String> corrupted = new CopyOnWriteArrayList<>();
        PeerTransport flipping = new Wrapper(new HttpPeerTransport(ADMIN)) {
            @Override
            public byte[] range(String url, TaskId task, long id, String file, long offset, int length)
                    throws IOException, InterruptedException {
                byte[] b = super.range(url, task, id, file, offset, length);
                if (file.endsWith(".sst") && corrupted.isEmpty()) {
                    corrupted.add(file);
                    b[b.length / 2] ^= 0x10;
                }
                return b;
            }
        };
        PeerRecovery r = recovery(flipping);
        Path b = root.resolve("b/task");
        Outcome o = recover(r, b);
        assertThat(corrupted).hasSize(1);
        assertThat(o.copied()).isTrue();
        long sst = Files.size(b.resolve(corrupted.getFirst()));
        assertThat(o.bytesCopied()).as("the corrupted file fetched twice").isEqualTo(bytesIn(b) + sst);
        peerReplies.addAll(peer.process(input, 20_000, 25_000));
        resumesExactly(b, o.checkpointOffset(), 25_000);
    }

    @Test
    void aFailedCopyLeavesTheOldCopyAndTheNextOneResumes() throws Exception {
        Path b = root.resolve("b/task");
        recover(recovery(new HttpPeerTransport(ADMIN)), b);
        Map<String, Integer> before = listing(b);
        peerReplies.addAll(peer.process(input, 20_000, 40_000));
        AtomicBoolean cut = new AtomicBoolean();
        PeerTransport dying = new Wrapper(new HttpPeerTransport(ADMIN)) {
            int pieces;

            @Override
            public byte[] range(String url, TaskId task, long id, String file, long offset, int length)
                    throws IOException, InterruptedException {
                if (++pieces > 5) {
                    cut.set(true);
                    throw new PeerTransport.PeerException(403, "forbidden", "the peer went away (test)");
                }
                return super.range(url, task, id, file, offset, length);
            }
        };
        PeerRecovery failing = recovery(dying);
        Outcome failed = recover(failing, b);
        assertThat(cut).isTrue();
        assertThat(failed).isEqualTo(Outcome.NOT_COPIED);
        assertThat(failing.metrics().failed()).isEqualTo(1);
        assertThat(listing(b)).as("the old copy, untouched").isEqualTo(before);
        assertThat(Files.exists(SnapshotCopier.sibling(b, ".recovering"))).isTrue();

        PeerRecovery good = recovery(new HttpPeerTransport(ADMIN));
        Outcome o = recover(good, b);
        assertThat(o.copied()).isTrue();
        assertThat(o.bytesCopied() + good.metrics().bytesReused()).isLessThan(bytesIn(b));
        resumesExactly(b, o.checkpointOffset(), 40_000);
    }

    @Test
    void aCompleteStagedCopyIsMovedInAfterACrashBetweenTheRenames() throws Exception {
        Path c = root.resolve("c/task");
        recover(recovery(new HttpPeerTransport(ADMIN)), c);
        Map<String, Integer> copied = listing(c);
        // as a crash after "task -> task.old" and before "task.recovering -> task" leaves it
        Path staging = SnapshotCopier.sibling(c, ".recovering");
        Files.move(c, staging);
        Files.write(staging.resolve(SnapshotManifest.FILE_NAME), new byte[] {1});
        Files.createDirectories(SnapshotCopier.sibling(c, ".old"));
        Outcome o = recovery(new HttpPeerTransport(ADMIN)).recover(TASK, c, List.of()).get();
        assertThat(o).isEqualTo(Outcome.NOT_COPIED);
        assertThat(listing(c)).isEqualTo(copied);
        assertThat(Files.exists(staging)).isFalse();
        assertThat(Files.exists(SnapshotCopier.sibling(c, ".old"))).isFalse();
    }

    @Test
    void strangersAndPathTraversalAreRefused() throws Exception {
        String t = "/internal/v1/tasks/" + TASK.topic() + "/0";
        assertThat(get(t + "/snapshot", null)).startsWith("401").contains("unauthorized");
        assertThat(get(t + "/snapshot", "wrong-token")).startsWith("401");
        assertThat(get(t + "/snapshots/1/files/state/../../../../etc/passwd", ADMIN)).startsWith("400")
                .contains("invalid_file_name");
        assertThat(get(t + "/snapshots/1/files/state/..%2F..%2Fetc%2Fpasswd", ADMIN)).startsWith("400");
        assertThat(get(t + "/snapshots/1/files/../../x", ADMIN)).startsWith("400");
        assertThat(get("/internal/v1/tasks/../0/snapshot", ADMIN)).startsWith("404");
        assertThat(get("/internal/v1/tasks/other.topic/3/snapshot", ADMIN)).startsWith("404").contains("task_not_here");
        assertThat(get(t + "/snapshots/1/files/state/CURRENT", ADMIN)).startsWith("404").contains("snapshot_gone");
        String manifest = get(t + "/snapshot", ADMIN);
        assertThat(manifest).startsWith("200");

        PeerRecovery stranger = recovery(new HttpPeerTransport("wrong-token"));
        Path b = root.resolve("b/task");
        assertThat(recover(stranger, b)).isEqualTo(Outcome.NOT_COPIED);
        assertThat(stranger.metrics().failed()).isEqualTo(1);
        assertThat(Files.exists(b)).isFalse();
    }

    @Test
    void theNextSourceServesWhenTheFirstIsDown() throws Exception {
        PeerRecovery r = recovery(new HttpPeerTransport(ADMIN));
        Path b = root.resolve("b/task");
        var noTask = new io.railgun.node.assignment.MemberAssignment.PeerCopy("z", peer.http.uri().toString(),
                io.railgun.node.assignment.CopyRole.STALE, 5);
        Outcome o = r.recover(new TaskId(TASK.topic(), 0), b, List.of(
                new io.railgun.node.assignment.MemberAssignment.PeerCopy("down", "http://127.0.0.1:1",
                        io.railgun.node.assignment.CopyRole.REPLICA, 9), noTask)).get();
        assertThat(o.copied()).isTrue();
        assertThat(o.fromNode()).isEqualTo("z");
    }

    /** Opens the copy, replays from its checkpoint to {@code end}: the peer's replies, and brute force's. */
    private void resumesExactly(Path taskDir, long offset, int end) throws Exception {
        SnapshotFixture fx = new SnapshotFixture();
        try (TaskProcessor t = TaskProcessor.open(SnapshotFixture.STREAM, TaskOptions.defaults(),
                SnapshotFixture.storage(taskDir))) {
            assertThat(t.resumeOffset()).isEqualTo(offset);
            var brute = SnapshotFixture.countAndSum(input, (int) offset);
            for (int i = (int) offset; i < end; i++) {
                List<Object> got = SnapshotFixture.values(t.process(fx.row(input.get(i)), i));
                assertThat(got).as("event %d", i).isEqualTo(peerReplies.get(i));
                long[] cs = SnapshotFixture.add(brute, input.get(i));
                assertThat(((Number) SnapshotFixture.value(got, "n")).longValue()).isEqualTo(cs[0]);
                assertThat(((Number) SnapshotFixture.value(got, "s")).doubleValue()).isEqualTo((double) cs[1]);
            }
        }
    }

    private static long bytesIn(Path dir) throws IOException {
        long n = 0;
        for (String d : SnapshotManifest.DIRECTORIES) {
            try (Stream<Path> files = Files.list(dir.resolve(d))) {
                for (Path p : files.toList()) {
                    n += Files.size(p);
                }
            }
        }
        return n;
    }

    private static Map<String, Integer> listing(Path dir) throws IOException {
        Map<String, Integer> m = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.filter(Files::isRegularFile).toList()) {
                m.put(dir.relativize(p).toString(), FileChecksum.of(p, Files.size(p)));
            }
        }
        return m;
    }

    /** A raw HTTP/1.1 GET (no client-side path normalisation): "status body". */
    private String get(String rawPath, String token) throws IOException {
        try (Socket s = new Socket(peer.http.uri().getHost(), peer.http.uri().getPort())) {
            OutputStream out = s.getOutputStream();
            String req = "GET " + rawPath + " HTTP/1.1\r\nHost: localhost\r\n"
                    + (token == null ? "" : "Authorization: Bearer " + token + "\r\n") + "Connection: close\r\n\r\n";
            out.write(req.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            String status = response.substring(9, 12);
            return status + " " + response.substring(response.indexOf("\r\n\r\n") + 4);
        }
    }

    /** Delegates to a transport; tests override a method to break it. */
    static class Wrapper implements PeerTransport {
        private final PeerTransport inner;

        Wrapper(PeerTransport inner) {
            this.inner = inner;
        }

        @Override
        public byte[] manifest(String baseUrl, TaskId task) throws IOException, InterruptedException {
            return inner.manifest(baseUrl, task);
        }

        @Override
        public byte[] range(String url, TaskId task, long id, String file, long offset, int length)
                throws IOException, InterruptedException {
            return inner.range(url, task, id, file, offset, length);
        }
    }
}
