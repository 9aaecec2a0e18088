package io.railgun.engine.reservoir.disk;

/**
 * A reservoir file or chunk that this version cannot read: an unknown format version, codec or
 * flag, or a chunk that fails its checks after the open-time recovery had accepted it (bit rot).
 * Fatal for the task: its reservoir must be rebuilt (from a replica or from Kafka). Recovery at open
 * never throws it for a torn or corrupt tail: it cuts that tail instead.
 */
public final class ReservoirFormatException extends RuntimeException {
    public ReservoirFormatException(String message) {
        super(message);
    }
}
