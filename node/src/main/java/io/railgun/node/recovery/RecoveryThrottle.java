package io.railgun.node.recovery;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A token bucket shared by every recovery of a node, so copies from peers take at most
 * {@code bytesPerSecond} of the disk and network whatever their number, and active tasks keep their
 * latency. A caller takes tokens before each piece it fetches; when the bucket is empty it sleeps
 * until the piece is paid for (the bucket may go into debt by one piece, so any piece size works).
 * The bucket holds at most a tenth of a second of tokens: an idle period allows no burst beyond that.
 * Thread-safe (recovery threads).
 */
public final class RecoveryThrottle {
    private final long bytesPerSecond;
    private final long capacity;
    private final LongSupplier nanoTime;
    private long tokens;
    private long lastNs;

    public RecoveryThrottle(long bytesPerSecond) {
        this(bytesPerSecond, System::nanoTime);
    }

    RecoveryThrottle(long bytesPerSecond, LongSupplier nanoTime) {
        if (bytesPerSecond < 1) {
            throw new IllegalArgumentException("recovery rate must be positive, not " + bytesPerSecond);
        }
        this.bytesPerSecond = bytesPerSecond;
        this.capacity = Math.max(1, bytesPerSecond / 10);
        this.nanoTime = nanoTime;
        this.lastNs = nanoTime.getAsLong();
    }

    public long bytesPerSecond() {
        return bytesPerSecond;
    }

    /** Takes {@code bytes} tokens, sleeping as long as they take to come. */
    public void acquire(long bytes) throws InterruptedException {
        long waitNs = reserve(bytes);
        if (waitNs > 0) {
            TimeUnit.NANOSECONDS.sleep(waitNs);
        }
    }

    /** Takes the tokens (into debt if need be); returns how long the caller must wait for them. */
    synchronized long reserve(long bytes) {
        long now = nanoTime.getAsLong();
        long earned = (long) ((now - lastNs) * (bytesPerSecond / 1e9));
        if (earned > 0) {
            tokens = Math.min(capacity, tokens + earned);
            lastNs = now;
        }
        tokens -= bytes;
        return tokens >= 0 ? 0 : (long) (-tokens * (1e9 / bytesPerSecond));
    }
}
