package io.railgun.bench.e2e;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The node's JVM seen through JMX — the child node's through the Attach API's local management
 * agent (same user, same machine; nothing to configure in the child), an in-process node's directly
 * — for what /proc cannot say: bytes allocated on the heap by each of its threads and in total
 * ({@code com.sun.management.ThreadMXBean}), and its collectors' counts and times. Two {@link
 * Reading}s give the allocation per event of the measured part ({@link AllocationFigures}). Reading
 * costs a few JMX calls (a few ms, and some allocation of the JMX threads, reported apart); do it
 * off the injector's sending thread. Unavailable (every reading null) when the attach fails; {@link
 * #why} then says why. Not thread-safe: one reader at a time.
 */
final class NodeJvm implements AutoCloseable {
    private final JMXConnector connector;
    private final com.sun.management.ThreadMXBean threads;
    private final List<GarbageCollectorMXBean> collectors;
    private final String why;

    private NodeJvm(JMXConnector connector, MBeanServerConnection server, String why) {
        this.connector = connector;
        this.why = why;
        com.sun.management.ThreadMXBean t = null;
        List<GarbageCollectorMXBean> gcs = new ArrayList<>();
        if (server != null) {
            try {
                t = ManagementFactory.newPlatformMXBeanProxy(server, ManagementFactory.THREAD_MXBEAN_NAME,
                        com.sun.management.ThreadMXBean.class);
                for (ObjectName name : server.queryNames(new ObjectName(
                        ManagementFactory.GARBAGE_COLLECTOR_MXBEAN_DOMAIN_TYPE + ",*"), null)) {
                    gcs.add(ManagementFactory.newPlatformMXBeanProxy(server, name.getCanonicalName(),
                            GarbageCollectorMXBean.class));
                }
            } catch (IOException | javax.management.MalformedObjectNameException | RuntimeException e) {
                t = null;
            }
        }
        this.threads = t;
        this.collectors = gcs;
    }

    /** The JVM of process {@code pid} (a child node), through its local management agent. */
    static NodeJvm attach(long pid) {
        try {
            VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
            String address;
            try {
                address = vm.startLocalManagementAgent();
            } finally {
                vm.detach();
            }
            JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(address));
            return new NodeJvm(connector, connector.getMBeanServerConnection(), null);
        } catch (Exception | LinkageError e) {
            return new NodeJvm(null, null, "no JMX connection to the node's JVM (" + e + ")");
        }
    }

    /** This JVM (an in-process node: its figures are the node's and the injector's together). */
    static NodeJvm local() {
        return new NodeJvm(null, ManagementFactory.getPlatformMBeanServer(), null);
    }

    /** None: a node elsewhere. */
    static NodeJvm none(String why) {
        return new NodeJvm(null, null, why);
    }

    boolean available() {
        return threads != null;
    }

    /** Why readings are null, or null when they are not. */
    String why() {
        return threads != null ? null : why != null ? why : "the node's JVM does not give its threads' allocation";
    }

    /** The collectors' names, e.g. {@code G1 Young Generation, G1 Old Generation}, or empty. */
    List<String> collectorNames() {
        List<String> names = new ArrayList<>();
        for (GarbageCollectorMXBean gc : collectors) {
            try {
                names.add(gc.getName());
            } catch (RuntimeException e) {
                // the JVM went away
            }
        }
        return names;
    }

    /** A reading now, or null when unavailable or the node's JVM does not answer. */
    Reading read() {
        if (threads == null) {
            return null;
        }
        try {
            long total = threads.getTotalThreadAllocatedBytes();
            long[] ids = threads.getAllThreadIds();
            long[] bytes = threads.getThreadAllocatedBytes(ids);
            ThreadInfo[] infos = threads.getThreadInfo(ids);
            Map<Long, Reading.ThreadBytes> byTid = new LinkedHashMap<>();
            for (int i = 0; i < ids.length; i++) {
                if (infos[i] != null && bytes[i] >= 0) {
                    byTid.put(ids[i], new Reading.ThreadBytes(infos[i].getThreadName(), bytes[i]));
                }
            }
            Map<String, long[]> gc = new LinkedHashMap<>();
            for (GarbageCollectorMXBean c : collectors) {
                gc.put(c.getName(), new long[] {c.getCollectionCount(), c.getCollectionTime()});
            }
            return new Reading(total, byTid, gc);
        } catch (RuntimeException e) {
            return null;
        }
    }

    @Override
    public void close() {
        if (connector != null) {
            try {
                connector.close();
            } catch (IOException e) {
                // the node has stopped
            }
        }
    }

    /**
     * One reading of the node's JVM.
     *
     * @param totalAllocated bytes allocated on the heap by all its threads since it started, ended ones included
     *                       (-1 when the JVM cannot say)
     * @param byTid          each live platform thread's name and allocated bytes (a virtual thread's allocation
     *                       is its carrier's)
     * @param gc             each collector's collections and milliseconds so far
     */
    record Reading(long totalAllocated, Map<Long, ThreadBytes> byTid, Map<String, long[]> gc) {
        record ThreadBytes(String name, long bytes) {}
    }
}
