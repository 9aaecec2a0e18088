package io.railgun.bench.faults;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One child process of the suite (a broker or a node, started through {@code ./railgun}, which
 * {@code exec}s the JVM, so the child's pid is the JVM's): its output is appended to a log file,
 * and it can be killed with SIGKILL ({@link #kill}), stopped with SIGTERM ({@link #terminate}) and
 * started again with the same command. Used from the suite's driver thread only; {@link #close} may
 * also run from the shutdown hook and kills whatever is still alive, descendants included.
 */
final class ManagedProcess implements AutoCloseable {
    private final String name;
    private final List<String> command;
    private final Map<String, String> env;
    private final Path log;
    private volatile Process process;

    ManagedProcess(String name, List<String> command, Map<String, String> env, Path log) {
        this.name = name;
        this.command = List.copyOf(command);
        this.env = Map.copyOf(env);
        this.log = log;
    }

    String name() {
        return name;
    }

    Path log() {
        return log;
    }

    void start() throws IOException {
        if (alive()) {
            throw new IllegalStateException(name + " is already running");
        }
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().putAll(env);
        process = pb.start();
    }

    boolean alive() {
        Process p = process;
        return p != null && p.isAlive();
    }

    long pid() {
        return process.pid();
    }

    /** SIGKILL (the JVM gets no chance to clean up), then waits until it is gone. */
    void kill() throws InterruptedException {
        Process p = process;
        if (p == null) {
            return;
        }
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM (a graceful stop); SIGKILL if it has not exited within {@code timeoutS}. Returns the exit code. */
    int terminate(int timeoutS) throws InterruptedException {
        Process p = process;
        if (p == null) {
            return -1;
        }
        p.destroy();
        if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
            System.out.printf("faults: %s did not stop within %d s of SIGTERM; SIGKILL%n", name, timeoutS);
            kill();
        }
        return p.exitValue();
    }

    @Override
    public void close() {
        Process p = process;
        if (p != null && p.isAlive()) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
