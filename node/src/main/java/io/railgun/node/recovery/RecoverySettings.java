package io.railgun.node.recovery;

/**
 * How a node copies tasks from peers.
 *
 * @param rateBytesPerSecond the most bytes per second all its recoveries together fetch
 *                           ({@code --recovery-rate}, 50 MiB/s by default)
 * @param threads            recoveries run at once (further ones queue)
 * @param pieceBytes         bytes asked for per request (a broken transfer resumes from the last piece)
 */
public record RecoverySettings(long rateBytesPerSecond, int threads, int pieceBytes) {
    public static final long DEFAULT_RATE_BYTES_PER_SECOND = io.railgun.node.NodeConfig.DEFAULT_RECOVERY_RATE_BYTES;

    public RecoverySettings {
        if (rateBytesPerSecond < 1 || threads < 1 || pieceBytes < 1 || pieceBytes > SnapshotServer.MAX_RANGE_BYTES) {
            throw new IllegalArgumentException("recovery rate, threads and piece size must be positive (piece at most "
                    + SnapshotServer.MAX_RANGE_BYTES + " bytes)");
        }
    }

    public static RecoverySettings defaults() {
        return new RecoverySettings(DEFAULT_RATE_BYTES_PER_SECOND, 2, 1 << 20);
    }

    public RecoverySettings withRate(long bytesPerSecond) {
        return new RecoverySettings(bytesPerSecond, threads, pieceBytes);
    }

    public RecoverySettings withPieceBytes(int bytes) {
        return new RecoverySettings(rateBytesPerSecond, threads, bytes);
    }
}
