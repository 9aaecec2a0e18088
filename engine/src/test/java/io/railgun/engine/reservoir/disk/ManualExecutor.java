package io.railgun.engine.reservoir.disk;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/** An executor that only queues: the test runs the tasks when it wants, on its own thread. */
final class ManualExecutor implements Executor {
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

    @Override
    public synchronized void execute(Runnable command) {
        tasks.add(command);
    }

    /** Runs queued tasks (and those they queue) until none is left; returns how many ran. */
    int runAll() {
        int n = 0;
        Runnable r;
        while ((r = poll()) != null) {
            r.run();
            n++;
        }
        return n;
    }

    synchronized int queued() {
        return tasks.size();
    }

    private synchronized Runnable poll() {
        return tasks.poll();
    }
}
