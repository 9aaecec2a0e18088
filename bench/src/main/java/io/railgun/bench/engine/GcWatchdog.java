package io.railgun.bench.engine;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * Watches the JVM's time in GC from a daemon thread of its own, and ends a run that thrashes; also
 * the GC counters the reports print. The replay thread writes its progress into the volatile
 * fields, which the watchdog only reads for its message.
 */
final class GcWatchdog {
    // an array, not the List: gcCount() runs on the replay thread at each slow event, and the List's
    // iterator was allocation counted as the engine's (up to ~4 B/event in a JFR sample of E1 durable)
    private static final GarbageCollectorMXBean[] GCS =
            ManagementFactory.getGarbageCollectorMXBeans().toArray(new GarbageCollectorMXBean[0]);
    /** Replay progress for the GC watchdog's message: the event replayed last (every 65,536th is written). */
    static volatile int progress = -1;
    static volatile int progressEvents;
    static volatile int progressWarmup;

    private GcWatchdog() {}

    /**
     * Ends the run (exit 3) when the JVM has spent more than half of the last minute in GC: a heap
     * too small for the workload thrashes instead of failing, and would run for hours.
     */
    static void start() {
        Thread t = new Thread(() -> {
            long[] ms = new long[13]; // GC time every 5 s over the last minute
            for (int i = 0; ; i++) {
                try {
                    Thread.sleep(5_000);
                } catch (InterruptedException e) {
                    return;
                }
                ms[i % ms.length] = gcMillis();
                if (i >= ms.length - 1) {
                    long inGc = ms[i % ms.length] - ms[(i + 1) % ms.length];
                    if (inGc > 0.5 * 60_000) {
                        Runtime rt = Runtime.getRuntime();
                        int at = progress;
                        System.out.printf("%nABORTED: %,d ms of the last 60 s in GC (%d collections so far; heap %,d of %,d MB used),"
                                        + " %s: the heap is too small for this workload%n", inGc, gcCount(),
                                (rt.totalMemory() - rt.freeMemory()) >> 20, rt.maxMemory() >> 20,
                                at < 0 ? "before the replay" : String.format(Locale.ROOT,
                                        "replaying event ~%,d of %,d (%s)", at, progressEvents,
                                        at < progressWarmup ? "warm-up" : "timed part"));
                        System.out.flush();
                        Runtime.getRuntime().halt(3);
                    }
                }
            }
        }, "gc-watchdog");
        t.setDaemon(true);
        t.start();
    }

    /** Collections so far, over every collector. */
    static long gcCount() {
        long n = 0;
        for (GarbageCollectorMXBean gc : GCS) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    /** Time in GC so far, over every collector, in ms. */
    static long gcMillis() {
        long n = 0;
        for (GarbageCollectorMXBean gc : GCS) {
            n += Math.max(0, gc.getCollectionTime());
        }
        return n;
    }
}
