package io.railgun.node.recovery;

import io.railgun.engine.snapshot.SnapshotFile;
import io.railgun.engine.snapshot.TaskSnapshot;
import io.railgun.node.assignment.TaskId;
import io.railgun.node.frontend.ApiException;
import io.railgun.node.http.InternalApi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The serving side of peer recovery ({@link TransferPath} for the endpoints, {@code
 * docs/distribution.md} for the protocol): a manifest request takes a snapshot of the task through
 * the unit running it ({@link SnapshotRequests}), or reuses one taken less than {@link #REUSE_MS}
 * ago; file requests read the snapshot's immutable files, a range at a time, off every task's
 * thread. A snapshot unused for {@link #IDLE_MS} is deleted (so a superseded one goes once its
 * transfers end); all are deleted at start and at close. Thread-safe: called on the HTTP server's
 * virtual threads; one daemon thread writes snapshots, another expires them.
 */
public final class SnapshotServer implements InternalApi, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(SnapshotServer.class.getName());
    static final long REUSE_MS = 10_000;
    static final long IDLE_MS = 120_000;
    /** Largest range served at once: a fetcher asks for smaller pieces. */
    static final int MAX_RANGE_BYTES = 8 << 20;
    private static final long SNAPSHOT_TIMEOUT_MS = 60_000;
    private static final String OCTETS = "application/octet-stream";

    private final Path directory;
    private final long reuseMs;
    private final SnapshotRequests units;
    private final ExecutorService writer;
    private final ScheduledExecutorService expiry;
    private final AtomicLong nextId = new AtomicLong(System.currentTimeMillis());
    private final ConcurrentHashMap<Long, Served> byId = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<TaskId, CompletableFuture<Served>> newest = new ConcurrentHashMap<>();

    /** A snapshot and when it was last used. */
    private record Served(TaskId task, TaskSnapshot snapshot, long takenNs, AtomicLong lastUseNs) {}

    /**
     * @param directory where snapshots are made (on the tasks' file system, so their files are hard
     *                  links); emptied now
     */
    public SnapshotServer(Path directory, SnapshotRequests units) {
        this(directory, units, REUSE_MS);
    }

    /** @param reuseMs how long a snapshot is handed out again to new manifest requests */
    SnapshotServer(Path directory, SnapshotRequests units, long reuseMs) {
        this.reuseMs = reuseMs;
        this.directory = directory;
        this.units = units;
        try {
            TaskSnapshot.deleteTree(directory);
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the snapshot directory " + directory + ": " + e.getMessage(), e);
        }
        this.writer = Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon().name("railgun-snapshot-writer").factory());
        this.expiry = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("railgun-snapshot-expiry").factory());
        expiry.scheduleWithFixedDelay(this::expire, 10, 10, TimeUnit.SECONDS);
    }

    @Override
    public String route(String method, String rawPath) {
        String shape = rawPath.contains("/snapshots/") ? TransferPath.FILE_ROUTE : TransferPath.MANIFEST_ROUTE;
        return method + " " + shape;
    }

    @Override
    public Response handle(String method, String rawPath, Function<String, String> header) {
        TransferPath path;
        try {
            path = TransferPath.parse(rawPath);
        } catch (TransferPath.InvalidFileName e) {
            throw ApiException.badRequest("invalid_file_name", e.getMessage());
        } catch (IllegalArgumentException e) {
            throw ApiException.notFound("not_found", e.getMessage());
        }
        if (!method.equals("GET")) {
            throw new ApiException(405, "method_not_allowed", method + " is not allowed on internal endpoints; use GET");
        }
        return path.isManifest() ? manifest(path.task()) : file(path, header.apply("Range"));
    }

    private Response manifest(TaskId task) {
        Served s = snapshot(task);
        s.lastUseNs().set(System.nanoTime());
        byte[] body = s.snapshot().manifest().encode();
        return new Response(200, OCTETS, body, body.length, List.of());
    }

    /** A snapshot of the task taken less than REUSE_MS ago, or a new one. */
    private Served snapshot(TaskId task) {
        CompletableFuture<Served> f = newest.compute(task, (t, old) -> {
            if (old != null && (!old.isDone() || !old.isCompletedExceptionally()
                    && System.nanoTime() - old.join().takenNs() < TimeUnit.MILLISECONDS.toNanos(reuseMs))) {
                return old;
            }
            long id = nextId.incrementAndGet();
            long askedNs = System.nanoTime();
            return units.request(t, directory.resolve(Long.toString(id)), id, writer).thenApply(snap -> {
                Served served = new Served(t, snap, System.nanoTime(), new AtomicLong(System.nanoTime()));
                byId.put(id, served);
                LOG.log(System.Logger.Level.INFO, "task {0}: snapshot {1} taken for a peer in {5} ms ({2} files, {3}"
                        + " bytes, checkpoint offset {4})", t, Long.toString(id), snap.manifest().files().size(),
                        Long.toString(snap.manifest().totalBytes()), Long.toString(snap.manifest().checkpointOffset()),
                        Long.toString((System.nanoTime() - askedNs) / 1_000_000));
                return served;
            });
        });
        try {
            return f.get(SNAPSHOT_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            newest.remove(task, f);
            if (e.getCause() instanceof SnapshotRequest.TaskNotHereException) {
                throw ApiException.notFound("task_not_here", "task " + task + " does not run on this node; ask a node"
                        + " that holds it");
            }
            LOG.log(System.Logger.Level.WARNING, "task " + task + ": snapshot for a peer failed", e.getCause());
            throw ApiException.unavailable("snapshot_failed", "the snapshot of task " + task + " failed: "
                    + e.getCause().getMessage(), 5);
        } catch (TimeoutException e) {
            throw ApiException.unavailable("snapshot_busy", "the snapshot of task " + task + " is not ready yet", 5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiException.unavailable("stopping", "interrupted", 1);
        }
    }

    private Response file(TransferPath path, String range) {
        Served s = byId.get(path.snapshotId());
        if (s == null || !s.task().equals(path.task())) {
            throw ApiException.notFound("snapshot_gone", "snapshot " + path.snapshotId() + " of task " + path.task()
                    + " is no longer served; request a new manifest");
        }
        s.lastUseNs().set(System.nanoTime());
        SnapshotFile f = s.snapshot().manifest().file(path.file());
        if (f == null) {
            throw ApiException.notFound("no_such_file", "snapshot " + path.snapshotId() + " has no file " + path.file());
        }
        long[] r = range(range, f.size());
        int length = (int) (r[1] - r[0]);
        byte[] body = new byte[length];
        try (FileChannel ch = FileChannel.open(s.snapshot().path(f), StandardOpenOption.READ)) {
            ByteBuffer buf = ByteBuffer.wrap(body);
            while (buf.hasRemaining()) {
                if (ch.read(buf, r[0] + buf.position()) < 0) {
                    throw new IOException("file shorter than its manifest says");
                }
            }
        } catch (IOException e) {
            byId.remove(path.snapshotId());
            throw ApiException.notFound("snapshot_gone", "snapshot " + path.snapshotId() + " can no longer be read ("
                    + e.getMessage() + "); request a new manifest");
        }
        if (range == null) {
            return new Response(200, OCTETS, body, length, List.of("Accept-Ranges", "bytes"));
        }
        return new Response(206, OCTETS, body, length, List.of("Accept-Ranges", "bytes", "Content-Range",
                "bytes " + r[0] + "-" + (r[1] - 1) + "/" + f.size()));
    }

    /**
     * [start, end) of a {@code Range: bytes=a-b} or {@code bytes=a-} header (one range only), or the
     * whole file without one; at most {@link #MAX_RANGE_BYTES}.
     */
    static long[] range(String header, long size) {
        if (header == null) {
            if (size > MAX_RANGE_BYTES) {
                throw ApiException.badRequest("range_required", "the file has " + size + " bytes: ask for it in ranges of"
                        + " at most " + MAX_RANGE_BYTES + " bytes (header 'Range: bytes=<first>-<last>')");
            }
            return new long[] {0, size};
        }
        String h = header.strip();
        int dash = h.indexOf('-');
        if (!h.startsWith("bytes=") || dash < 0 || h.indexOf(',') >= 0) {
            throw ApiException.badRequest("invalid_range", "Range must be 'bytes=<first>-<last>' or 'bytes=<first>-',"
                    + " one range; was '" + header + "'");
        }
        long first;
        long last;
        try {
            first = Long.parseLong(h.substring(6, dash));
            last = dash == h.length() - 1 ? size - 1 : Long.parseLong(h.substring(dash + 1));
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("invalid_range", "Range must be 'bytes=<first>-<last>'; was '" + header + "'");
        }
        if (first < 0 || last < first || first >= size) {
            throw new ApiException(416, "range_not_satisfiable", "range " + first + "-" + last + " is outside the file's "
                    + size + " bytes");
        }
        long end = Math.min(Math.min(last, size - 1) + 1, first + MAX_RANGE_BYTES); // (last + 1 may overflow)
        return new long[] {first, end};
    }

    /** Deletes snapshots unused for IDLE_MS. */
    void expire() {
        long now = System.nanoTime();
        for (var e : byId.entrySet()) {
            Served s = e.getValue();
            if (now - s.lastUseNs().get() > TimeUnit.MILLISECONDS.toNanos(IDLE_MS)) {
                byId.remove(e.getKey());
                newest.computeIfPresent(s.task(), (t, f) -> f.isDone() && !f.isCompletedExceptionally() && f.join() == s
                        ? null : f);
                release(s);
            }
        }
    }

    private static void release(Served s) {
        try {
            s.snapshot().delete();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "could not delete snapshot " + s.snapshot().directory() + ": " + e);
        }
    }

    /** Snapshots served now (for tests and stats). */
    int served() {
        return byId.size();
    }

    @Override
    public void close() {
        expiry.shutdownNow();
        writer.shutdown();
        try {
            writer.awaitTermination(30, TimeUnit.SECONDS);
            TaskSnapshot.deleteTree(directory);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "could not delete " + directory + ": " + e);
        }
    }
}
