package io.railgun.node.http;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the HTTP API's open connections, in all and per client address, against their caps: a
 * connection over either cap is refused as soon as it is accepted, before anything of it is read.
 * Thread-safe (called on the event loops as connections open and close).
 */
final class ConnectionLimits {
    private final int maxConnections;
    private final int maxPerAddress;
    private final AtomicInteger open = new AtomicInteger();
    private final ConcurrentHashMap<InetAddress, Integer> perAddress = new ConcurrentHashMap<>();

    ConnectionLimits(int maxConnections, int maxPerAddress) {
        if (maxConnections < 1 || maxPerAddress < 1) {
            throw new IllegalArgumentException("connection caps must be at least 1");
        }
        this.maxConnections = maxConnections;
        this.maxPerAddress = maxPerAddress;
    }

    /** Why a connection was refused. */
    enum Refusal { NODE, ADDRESS }

    /**
     * Takes a place for a new connection from {@code address}; {@link #release} gives it back.
     *
     * @return null when taken; else which cap is full (and nothing was taken)
     */
    Refusal acquire(InetAddress address) {
        if (open.incrementAndGet() > maxConnections) {
            open.decrementAndGet();
            return Refusal.NODE;
        }
        boolean[] full = new boolean[1];
        perAddress.compute(address, (a, n) -> {
            if (n == null) {
                return 1;
            }
            if (n >= maxPerAddress) {
                full[0] = true;
                return n;
            }
            return n + 1;
        });
        if (full[0]) {
            open.decrementAndGet();
            return Refusal.ADDRESS;
        }
        return null;
    }

    /** Gives back the place {@link #acquire} took for a connection from {@code address}. */
    void release(InetAddress address) {
        perAddress.computeIfPresent(address, (a, n) -> n <= 1 ? null : n - 1);
        open.decrementAndGet();
    }

    /** Connections open now. */
    int open() {
        return open.get();
    }

    int maxConnections() {
        return maxConnections;
    }

    int maxPerAddress() {
        return maxPerAddress;
    }
}
