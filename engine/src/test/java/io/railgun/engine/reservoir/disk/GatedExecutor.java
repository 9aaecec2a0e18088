package io.railgun.engine.reservoir.disk;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Executor;

/** A one-thread executor whose tasks wait until the test opens the gate: a writer stuck on I/O. */
final class GatedExecutor implements Executor, AutoCloseable {
    private final CountDownLatch gate = new CountDownLatch(1);
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "gated-writer");
        t.setDaemon(true);
        return t;
    });

    @Override
    public void execute(Runnable command) {
        thread.execute(() -> {
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            command.run();
        });
    }

    void open() {
        gate.countDown();
    }

    @Override
    public void close() {
        open();
        thread.shutdown();
    }
}
