package io.railgun.bench.e2e;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The node's heap allocation over the measured part, per event answered, from two {@link
 * NodeJvm.Reading}s: in total, and by thread group — {@code http} (the JDK server's dispatcher and
 * the carriers of its virtual threads), {@code units} (processor units, their Kafka consumer and
 * producer calls included), {@code kafka-clients} (producers' network threads, consumers'
 * background threads), {@code broker} (the embedded Kafka broker and controller), {@code node}
 * (the node's other threads), {@code jmx} (the threads that answer this measurement: left out of
 * the node's figure), and {@code ended} (threads that ended in between, and what the JVM counts
 * outside live platform threads) — and its collectors' counts and times over the same interval.
 * Immutable.
 *
 * @param events         events answered in the interval (the denominator)
 * @param bytes          bytes the node allocated in the interval, the JMX threads' excluded
 * @param bytesByGroup   bytes by thread group, largest first
 * @param gcCounts       collections in the interval by collector
 * @param gcMs           milliseconds in the interval by collector (pauses for stop-the-world collectors; ZGC's
 *                       "Cycles" beans count concurrent cycles, its "Pauses" beans the pauses)
 */
record AllocationFigures(long events, long bytes, Map<String, Long> bytesByGroup, Map<String, Long> gcCounts,
                         Map<String, Long> gcMs) {

    static final String JMX = "jmx";

    /** The figures of the interval from {@code before} to {@code after}, or null when either is missing. */
    static AllocationFigures between(NodeJvm.Reading before, NodeJvm.Reading after, long events) {
        if (before == null || after == null || events <= 0) {
            return null;
        }
        Map<String, Long> groups = new LinkedHashMap<>();
        long live = 0;
        for (Map.Entry<Long, NodeJvm.Reading.ThreadBytes> e : after.byTid().entrySet()) {
            NodeJvm.Reading.ThreadBytes was = before.byTid().get(e.getKey());
            long delta = e.getValue().bytes() - (was == null ? 0 : was.bytes());
            if (delta > 0) {
                groups.merge(group(e.getValue().name()), delta, Long::sum);
                live += delta;
            }
        }
        long total = after.totalAllocated() >= 0 && before.totalAllocated() >= 0
                ? after.totalAllocated() - before.totalAllocated() : live;
        if (total > live) {
            groups.merge("ended", total - live, Long::sum);
        }
        Map<String, Long> sorted = groups.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
        Map<String, Long> counts = new LinkedHashMap<>();
        Map<String, Long> ms = new LinkedHashMap<>();
        for (Map.Entry<String, long[]> e : after.gc().entrySet()) {
            long[] was = before.gc().getOrDefault(e.getKey(), new long[2]);
            counts.put(e.getKey(), e.getValue()[0] - was[0]);
            ms.put(e.getKey(), e.getValue()[1] - was[1]);
        }
        return new AllocationFigures(events, Math.max(total, live) - sorted.getOrDefault(JMX, 0L), sorted, counts, ms);
    }

    /** The group of a thread by its name. */
    static String group(String thread) {
        String t = thread.toLowerCase(Locale.ROOT);
        if (t.startsWith("http-") || t.startsWith("forkjoinpool-") || t.equals("server-timer")
                || t.startsWith("idle-timeout")) {
            return "http";
        }
        if (t.startsWith("railgun-unit")) {
            return "units";
        }
        if (t.startsWith("kafka-producer-network-thread") || t.contains("heartbeat-thread")
                || t.startsWith("consumer_background_thread") || t.contains("consumer_background")) {
            return "kafka-clients";
        }
        if (t.startsWith("railgun")) {
            return "node";
        }
        if (t.startsWith("rmi ") || t.startsWith("jmx ") || t.startsWith("attach listener")
                || t.startsWith("rmi-") || t.contains("jmx")) {
            return JMX;
        }
        if (t.startsWith("reference handler") || t.startsWith("finalizer") || t.startsWith("signal dispatcher")
                || t.startsWith("common-cleaner") || t.startsWith("notification thread") || t.equals("main")
                || t.startsWith("destroyjavavm") || t.startsWith("node-log")) {
            return "jvm";
        }
        return "broker"; // the embedded Kafka broker's and controller's many threads, under many names
    }

    double bytesPerEvent() {
        return bytes / (double) events;
    }

    /** {@code http 1,234, units 567, ...} in B/event (the jmx group marked as excluded). */
    String describeGroups() {
        return bytesByGroup.entrySet().stream().map(e -> String.format(Locale.ROOT, "%s %,.0f%s", e.getKey(),
                e.getValue() / (double) events, e.getKey().equals(JMX) ? " (not counted)" : ""))
                .collect(Collectors.joining(", "));
    }

    /** {@code G1 Young Generation 12 (85 ms), ...}: the collectors that ran. */
    String describeGc() {
        List<String> parts = new ArrayList<>();
        gcCounts.forEach((name, n) -> {
            if (n > 0) {
                parts.add(String.format(Locale.ROOT, "%s %d (%d ms)", name, n, gcMs.get(name)));
            }
        });
        return parts.isEmpty() ? "none" : String.join(", ", parts);
    }

    /** JSON fields (no braces): nodeAllocBytesPerEventByGroup, nodeGc (the measured part's collections). */
    String json() {
        return String.format(Locale.ROOT, "\"nodeAllocBytesPerEventByGroup\":{%s},\"nodeGc\":{%s}",
                bytesByGroup.entrySet().stream().map(e -> String.format(Locale.ROOT, "\"%s\":%.1f", e.getKey(),
                        e.getValue() / (double) events)).collect(Collectors.joining(",")),
                gcCounts.keySet().stream().map(k -> String.format(Locale.ROOT, "\"%s\":{\"count\":%d,\"ms\":%d}", k,
                        gcCounts.get(k), gcMs.get(k))).collect(Collectors.joining(",")));
    }
}
