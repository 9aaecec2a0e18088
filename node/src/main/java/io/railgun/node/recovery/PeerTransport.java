package io.railgun.node.recovery;

import io.railgun.node.assignment.TaskId;
import java.io.IOException;

/**
 * How a recovery reaches a peer's snapshot endpoints ({@link TransferPath}): over HTTP in a node
 * ({@link HttpPeerTransport}); tests wrap it to break or corrupt transfers. Called on recovery
 * threads; implementations are thread-safe.
 */
interface PeerTransport {
    /** The encoded manifest of a fresh (or recent) snapshot of {@code task} on the peer at {@code baseUrl}. */
    byte[] manifest(String baseUrl, TaskId task) throws IOException, InterruptedException;

    /** Bytes [offset, offset + length) of a snapshot file; exactly {@code length} bytes. */
    byte[] range(String baseUrl, TaskId task, long snapshotId, String file, long offset, int length)
            throws IOException, InterruptedException;

    /** A peer refused a request: its HTTP status and error code ({@code snapshot_gone}, {@code task_not_here} ...). */
    final class PeerException extends IOException {
        final int status;
        final String code;

        PeerException(int status, String code, String message) {
            super(message);
            this.status = status;
            this.code = code;
        }

        /** The snapshot expired on the peer: a new manifest is needed. */
        boolean snapshotGone() {
            return "snapshot_gone".equals(code);
        }
    }
}
