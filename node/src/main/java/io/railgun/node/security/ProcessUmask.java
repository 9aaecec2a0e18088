package io.railgun.node.security;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * The process's file mode creation mask ({@code umask(2)}), set through the C library with the
 * foreign function API: the JDK has no call for it, and the files of a node are made by three
 * writers (our code, the embedded Kafka broker, RocksDB) of which only the first could be given
 * permissions file by file. With {@code 077} in the mask, every file and directory the process
 * creates from then on has no group or other permission bits, whatever its writer asks for.
 *
 * <p>Process-wide: it also applies to other files the JVM creates afterwards (logs, temporary
 * files), which is what a server that holds events wants. Thread-safe: {@link #restrict()} is
 * idempotent and synchronised; the mask itself is one per process.
 */
public final class ProcessUmask {
    /** No permission for group and others. */
    static final int OWNER_ONLY = 0077;
    private static Boolean restricted;

    private ProcessUmask() {}

    /**
     * Adds {@code 077} to the process's umask (keeps the bits already there).
     *
     * @return true when the mask now holds 077; false where there is no {@code umask} (not a POSIX
     *         C library) or it cannot be called (then files get the modes their writers ask for)
     */
    public static synchronized boolean restrict() {
        if (restricted == null) {
            restricted = apply();
        }
        return restricted;
    }

    private static boolean apply() {
        try {
            Linker linker = Linker.nativeLinker();
            Optional<MemorySegment> symbol = linker.defaultLookup().find("umask");
            if (symbol.isEmpty()) {
                return false;
            }
            // mode_t is 32 bits on Linux and 16 on macOS: an int argument suits both ABIs; the result is masked
            MethodHandle umask = linker.downcallHandle(symbol.get(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
            int old = (int) umask.invokeExact(OWNER_ONLY) & 0777;
            if ((old | OWNER_ONLY) != OWNER_ONLY) {
                int ignored = (int) umask.invokeExact(old | OWNER_ONLY);
            }
            return true;
        } catch (Throwable e) {
            // IllegalCallerException without native access, UnsupportedOperationException without a linker
            System.getLogger(ProcessUmask.class.getName()).log(System.Logger.Level.WARNING, "cannot set the process"
                    + " umask (" + e + "); files are created with the modes their writers ask for, inside an"
                    + " owner-only data directory");
            return false;
        }
    }
}
