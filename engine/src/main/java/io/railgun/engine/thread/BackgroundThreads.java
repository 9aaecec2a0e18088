package io.railgun.engine.thread;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import java.util.concurrent.ThreadFactory;

/**
 * Daemon threads for background work (writing the reservoir's chunks, writing checkpoints) that
 * run at a lower scheduling priority than the threads on an event's path; and, for background
 * work an event may wait for (reading the reservoir's chunks ahead), daemon threads that do not
 * ({@link #promptFactory}).
 *
 * <p>On two cores the task's thread shared a core with them: in durable E1 it waited for a CPU 5%
 * of its time, and was preempted for whole 4 ms time slices. {@value #STEPS} nice steps lower
 * than the thread that starts them (Linux's scheduler then gives the other about three times
 * their weight) they still make progress — a task waits for a checkpoint write that falls too far
 * behind, so they cannot be starved for good — but yield the core first. The step is relative:
 * a node started under {@code nice -n 10} gets background threads at 15, never above its own
 * (an absolute value would raise them, for a process allowed to). Linux keeps a nice value per
 * thread; {@code getpriority}/{@code setpriority(PRIO_PROCESS, 0, n)} read and set the calling
 * thread's. Elsewhere, or if the calls fail, threads keep the priority they inherit.
 *
 * <p>Threads a background thread starts inherit its nice value; none of ours does.
 */
public final class BackgroundThreads {
    /** Nice steps below the starting thread (higher nice is lower priority). */
    static final int STEPS = 5;
    private static final int MAX_NICE = 19;
    private static final MethodHandle GETPRIORITY;
    private static final MethodHandle SETPRIORITY;

    static {
        MethodHandle get = null;
        MethodHandle set = null;
        if (System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                MemorySegment getAddress = libc.find("getpriority").orElse(null);
                MemorySegment setAddress = libc.find("setpriority").orElse(null);
                if (getAddress != null && setAddress != null) {
                    get = linker.downcallHandle(getAddress, FunctionDescriptor.of(ValueLayout.JAVA_INT,
                            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
                    set = linker.downcallHandle(setAddress, FunctionDescriptor.of(ValueLayout.JAVA_INT,
                            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
                }
            } catch (RuntimeException | LinkageError e) {
                get = null; // native access denied (IllegalCallerException), or no such platform support
                set = null;
            }
        }
        GETPRIORITY = get;
        SETPRIORITY = set;
    }

    private BackgroundThreads() {
    }

    /**
     * A factory of daemon threads named {@code name} at the priority of the caller of
     * {@code newThread}: for background work an event may wait for. The disk reservoir's reader,
     * which reads the chunk a window's tail will enter next, ran with the others {@value #STEPS}
     * steps down; on two cores, while a checkpoint was written, it shared the second core evenly
     * with the checkpoint writer, its reads came late, and the task's thread read the chunk
     * itself (durable E1: 1,090–1,189 such stalls in 6 M events; 305–482 with the reader at the
     * task's priority, and 24% faster; docs/benchmarks.md, 2026-12-02).
     */
    public static ThreadFactory promptFactory(String name) {
        return Thread.ofPlatform().daemon().name(name).factory();
    }

    /** A factory of daemon threads named {@code name}, {@value #STEPS} nice steps below the caller of {@code newThread}. */
    public static ThreadFactory factory(String name) {
        ThreadFactory daemons = Thread.ofPlatform().daemon().name(name).factory(); // (thread-safe, unlike a builder)
        return r -> daemons.newThread(() -> {
            lowerCurrentThread();
            r.run();
        });
    }

    /** Lowers the calling thread's priority by {@value #STEPS} nice steps (at most to 19); whether it could. */
    static boolean lowerCurrentThread() {
        if (SETPRIORITY == null) {
            return false;
        }
        try {
            // glibc returns the nice value itself (-20..19); -1 is also its error value, taken as
            // a nice of -1 here: the thread then goes to 4, still below the threads at 0
            int nice = (int) GETPRIORITY.invokeExact(0, 0);
            int target = Math.min(MAX_NICE, nice + STEPS);
            return target == nice || (int) SETPRIORITY.invokeExact(0, 0, target) == 0;
        } catch (Throwable e) {
            return false;
        }
    }
}
