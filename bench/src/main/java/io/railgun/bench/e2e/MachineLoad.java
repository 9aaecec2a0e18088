package io.railgun.bench.e2e;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One reading of how busy the machine is (Linux {@code /proc}): CPU time of the whole machine
 * (busy and total, all cores), of the node process and of this (injector) process, the 1-minute
 * load average and this JVM's GC. Two readings give the shares of the interval between them, so a
 * run says whether other work was competing for the cores. Values are -1 where unknown.
 *
 * @param atNs          System.nanoTime of the reading
 * @param machineBusy   jiffies the CPUs spent outside idle and iowait
 * @param machineTotal  all jiffies
 * @param nodeCpuNs     the node process's CPU time, or -1
 * @param injectorCpuNs this process's CPU time
 * @param load1         the 1-minute load average
 * @param gcCount       this JVM's collections so far
 * @param gcMs          this JVM's time in GC so far
 */
record MachineLoad(long atNs, long machineBusy, long machineTotal, long nodeCpuNs, long injectorCpuNs, double load1,
                   long gcCount, long gcMs) {

    static MachineLoad read(NodeUnderTest node) {
        long busy = -1;
        long total = -1;
        try {
            // cpu  user nice system idle iowait irq softirq steal guest guest_nice
            String[] f = Files.readAllLines(Path.of("/proc/stat")).getFirst().trim().split("\\s+");
            total = 0;
            for (int i = 1; i <= Math.min(8, f.length - 1); i++) {
                total += Long.parseLong(f[i]);
            }
            busy = total - Long.parseLong(f[4]) - Long.parseLong(f[5]);
        } catch (IOException | RuntimeException e) {
            busy = -1;
        }
        double load = -1;
        try {
            load = Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            load = -1;
        }
        long count = 0;
        long ms = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount());
            ms += Math.max(0, gc.getCollectionTime());
        }
        long injector = ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
        return new MachineLoad(System.nanoTime(), busy, total, node.cpuNanos(), injector, load, count, ms);
    }

    /** The shares of the interval from {@code before} to this reading. */
    Shares since(MachineLoad before, boolean nodeInProcess) {
        double wallNs = atNs - before.atNs;
        int cpus = Runtime.getRuntime().availableProcessors();
        double machine = machineTotal < 0 || before.machineTotal < 0 || machineTotal == before.machineTotal ? -1
                : (double) (machineBusy - before.machineBusy) / (machineTotal - before.machineTotal);
        double node = nodeCpuNs < 0 || before.nodeCpuNs < 0 ? -1 : (nodeCpuNs - before.nodeCpuNs) / (wallNs * cpus);
        double injector = injectorCpuNs < 0 ? -1 : (injectorCpuNs - before.injectorCpuNs) / (wallNs * cpus);
        double other = machine < 0 || injector < 0 ? -1 : Math.max(0, machine - injector - Math.max(0, node));
        return new Shares(cpus, machine, node, injector, nodeInProcess ? "node+injector" : "injector", other,
                before.load1, load1, gcCount - before.gcCount, gcMs - before.gcMs,
                nodeCpuNs < 0 || before.nodeCpuNs < 0 ? -1 : nodeCpuNs - before.nodeCpuNs,
                injectorCpuNs < 0 || before.injectorCpuNs < 0 ? -1 : injectorCpuNs - before.injectorCpuNs);
    }

    /**
     * CPU shares of an interval, each of all the machine's cores (1.0 = every core busy all along).
     *
     * @param injectorLabel what the injector's share covers: {@code node+injector} for an in-process node
     * @param other the machine's busy share minus the node's and the injector's: other processes
     *              (with a remote node on this machine, the node is in here)
     * @param nodeCpuNs     the node process's CPU time (user + sys) over the interval, or -1
     * @param injectorCpuNs this process's CPU time over the interval, or -1
     */
    record Shares(int cpus, double machine, double node, double injector, String injectorLabel, double other,
                  double load1Before, double load1After, long injectorGcCount, long injectorGcMs, long nodeCpuNs,
                  long injectorCpuNs) {

        String describe() {
            return String.format(java.util.Locale.ROOT,
                    "machine busy %s of %d CPUs (node %s, %s %s, other processes %s); load average %.2f -> %.2f;"
                            + " injector JVM GC %d collections, %d ms",
                    pct(machine), cpus, pct(node), injectorLabel, pct(injector), pct(other), load1Before, load1After,
                    injectorGcCount, injectorGcMs);
        }

        private static String pct(double share) {
            return share < 0 ? "?" : String.format(java.util.Locale.ROOT, "%.0f%%", share * 100);
        }
    }
}
