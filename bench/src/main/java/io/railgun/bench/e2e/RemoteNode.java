package io.railgun.bench.e2e;

import java.net.URI;

/** A node started by someone else ({@code ./railgun start}), reached at its URL; left running. */
record RemoteNode(URI uri) implements NodeUnderTest {

    @Override
    public String describe() {
        return "running node at " + uri;
    }

    @Override
    public long cpuNanos() {
        return -1;
    }

    @Override
    public long pid() {
        return -1;
    }

    @Override
    public void close() {}
}
