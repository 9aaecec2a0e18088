package io.railgun.engine.thread;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;

/**
 * Daemon threads for background work (writing the reservoir's chunks, reading them ahead, writing
 * checkpoints) that run at a lower scheduling priority than the threads on an event's path.
 *
 * <p>On two cores the task's thread shared a core with them: in durable E1 it waited for a CPU 5%
 * of its time, and was preempted for whole 4 ms time slices. At nice {@value #NICE} (Linux's
 * scheduler gives a nice-0 thread about three times its weight) they still make progress — a
 * task waits for a checkpoint write that falls too far behind, so they cannot be starved for good
 * — but yield the core first. Linux keeps a nice value per thread; {@code setpriority(PRIO_PROCESS, 0,
 * n)} sets the calling thread's. Elsewhere, or if the call fails, threads keep the default priority.
 */
public final class BackgroundThreads {
    /** Nice value of background threads (0 is the default; higher is lower priority). */
    public static final int NICE = 5;
    private static final MethodHandle SETPRIORITY = lookup();

    private BackgroundThreads() {
    }

    /** A factory of daemon threads named {@code name}, at the background priority. */
    public static ThreadFactory factory(String name) {
        return r -> {
            Thread t = new Thread(() -> {
                lowerCurrentThread();
                r.run();
            }, name);
            t.setDaemon(true);
            return t;
        };
    }

    /**
     * Lowers the calling thread's priority to nice {@value #NICE} (a thread already lower keeps
     * its own: an unprivileged process cannot raise it back); whether it could.
     */
    static boolean lowerCurrentThread() {
        if (SETPRIORITY == null) {
            return false;
        }
        try {
            return (int) SETPRIORITY.invokeExact(0, 0, NICE) == 0;
        } catch (Throwable e) {
            return false;
        }
    }

    private static MethodHandle lookup() {
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            Optional<java.lang.foreign.MemorySegment> f = linker.defaultLookup().find("setpriority");
            return f.map(s -> linker.downcallHandle(s, FunctionDescriptor.of(ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT))).orElse(null);
        } catch (RuntimeException | LinkageError e) {
            return null; // no native access granted, or no such function
        }
    }
}
