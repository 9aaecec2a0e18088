package io.railgun.bench.engine;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code bench/run engine --compare-state}: runs {@link EngineBench} with the in-memory and the
 * durable state store, each in a child JVM, and prints both and their ratio from the children's
 * result files. Runs on the main thread.
 */
final class StateComparison {
    /** The JVM flags of the child runs, when given (bench/run does); else the parent's own. */
    static final String CHILD_JVM_PROPERTY = "railgun.bench.childJvmFlags";

    private StateComparison() {}

    /**
     * Runs the workload with the in-memory state store, then with the durable one, each in a fresh
     * JVM started with this JVM's flags and class path, and prints both rows and their ratio. Child
     * JVMs rather than two runs in this one: the second run in a shared JVM would inherit the
     * first's heap (old generation, GC ergonomics) and its JIT profiles, where the state store and
     * reservoir call sites have seen only the other implementation (deoptimisation, megamorphic
     * calls), which biases the comparison against whichever runs second.
     */
    static void run(EngineBenchOptions o, String[] args) throws Exception {
        List<String> common = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--compare-state" -> { }
                case "--state", "--reservoir", "--rounds" -> i++;
                default -> common.add(args[i]);
            }
        }
        common.add("--reservoir");
        common.add(o.disk() ? "disk" : "memory");
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> jvm = new ArrayList<>();
        jvm.add(java);
        // the children's flags: bench/run's (it starts this parent with a small heap of its own, not
        // the children's touched 8 GiB), else this JVM's
        String childFlags = System.getProperty(CHILD_JVM_PROPERTY, "").trim();
        jvm.addAll(childFlags.isEmpty() ? ManagementFactory.getRuntimeMXBean().getInputArguments()
                : List.of(childFlags.split("\\s+")));
        jvm.add("-cp");
        jvm.add(System.getProperty("java.class.path"));
        jvm.add(EngineBench.class.getName());

        List<String> rows = new ArrayList<>();
        List<String> memoryRows = new ArrayList<>();
        List<String> durableRows = new ArrayList<>();
        for (int round = 1; round <= o.rounds(); round++) {
            for (String state : List.of("memory", "durable")) {
                List<String> childArgs = new ArrayList<>(common);
                childArgs.add("--state");
                childArgs.add(state);
                if ((state.equals("durable") || round > 1) && !childArgs.contains("--no-baseline")) {
                    childArgs.add("--no-baseline"); // the baseline ran once, with the first memory run, on the same events
                }
                List<String> cmd = new ArrayList<>(jvm);
                cmd.addAll(childArgs);
                System.out.printf("%n=== round %d/%d, state %s: %s%n", round, o.rounds(), state, String.join(" ", childArgs));
                int rc = new ProcessBuilder(cmd).inheritIO().start().waitFor();
                if (rc != 0) {
                    String failure = String.format(Locale.ROOT, "{\"round\":%d,\"harness\":\"engine\",\"failed\":\"%s\",\"exit\":%d}",
                            round, state, rc);
                    rows.add(failure);
                    (state.equals("memory") ? memoryRows : durableRows).add(failure);
                    continue;
                }
                EngineBenchOptions child = EngineBenchOptions.parse(childArgs.toArray(new String[0]));
                for (String line : Files.readAllLines(ProcessProbes.resultsDir().resolve("engine-" + child.label() + ".json"))) {
                    String tagged = line.replaceFirst("^\\{", "{\"round\":" + round + ",");
                    rows.add(tagged);
                    if (line.contains("\"state\":\"memory\"")) {
                        memoryRows.add(tagged);
                    } else if (line.contains("\"state\":\"durable\"")) {
                        durableRows.add(tagged);
                    }
                }
            }
        }

        System.out.printf("%n=== %s, state compared in the same run (%s reservoir; %,d events, %,d cards, hot keys %s; %d round%s)%n",
                o.query(), o.disk() ? "disk" : "memory", o.events(), o.cards(), o.hotKeysText(), o.rounds(),
                o.rounds() == 1 ? "" : "s, alternated");
        System.out.printf("%-10s %12s %10s %9s %9s %9s %9s %10s %12s %10s %12s %6s %6s%n", "state", "events/s", "alloc B/ev",
                "p50 µs", "p99 µs", "p99.9 µs", "p99.99 µs", "max µs", "checkpoints", "evictions", "RocksDB MB", "CPU", "runq");
        for (int i = 0; i < o.rounds(); i++) {
            for (String r : List.of(memoryRows.get(i), durableRows.get(i))) {
                String name = r.contains("\"state\":\"durable\"") || r.contains("\"failed\":\"durable\"") ? "durable" : "memory";
                name += o.rounds() > 1 ? " " + (i + 1) : "";
                if (r.contains("\"failed\"")) {
                    System.out.printf("%-10s failed (exit %s; see its output above)%n", name, field(r, "exit"));
                    continue;
                }
                boolean d = r.contains("\"state\":\"durable\"");
                System.out.printf("%-10s %,12.0f %10.1f %9.2f %9.2f %9.2f %9.2f %,10.0f %12s %10s %12s %5.0f%% %5.0f%%%n",
                        name, num(r, "eventsPerSecond"),
                        num(r, "allocBytesPerEvent"), num(r, "p50Us"), num(r, "p99Us"), num(r, "p999Us"), num(r, "p9999Us"),
                        num(r, "maxUs"),
                        d ? String.format(Locale.ROOT, "%.0f", num(r, "checkpointsTimed")) : "-",
                        d ? String.format(Locale.ROOT, "%,.0f", num(r, "evictionsTimed")) : "-",
                        d ? String.format(Locale.ROOT, "%.1f", num(r, "rocksDbBytesAfterClose") / (1 << 20)) : "-",
                        100 * num(r, "replayCpuShare"), 100 * num(r, "replayRunQueueShare"));
            }
        }
        List<String> memoryOk = memoryRows.stream().filter(r -> !r.contains("\"failed\"")).toList();
        List<String> durableOk = durableRows.stream().filter(r -> !r.contains("\"failed\"")).toList();
        Set<String> checksums = new HashSet<>();
        for (String r : rows) {
            if (r.contains("\"state\":")) {
                checksums.add(field(r, "checksum"));
            }
        }
        boolean same = checksums.size() == 1;
        boolean failed = memoryOk.size() < o.rounds() || durableOk.size() < o.rounds();
        if (memoryOk.isEmpty() || durableOk.isEmpty()) {
            System.out.printf("no ratio: %s failed; checksums %s %s%n", memoryOk.isEmpty() ? "every memory run" : "every durable run",
                    same ? "equal" : "DIFFER", checksums);
        } else {
            double memoryRate = median(memoryOk, "eventsPerSecond");
            double durableRate = median(durableOk, "eventsPerSecond");
            double ratio = durableRate / memoryRate;
            long uncheckpointed = durableOk.stream().filter(r -> num(r, "checkpointsTimed") == 0).count();
            System.out.printf("durable / memory throughput: %.3f%s; p99.9 durable / memory: %.2f; checksums %s %s%s%s%n",
                    ratio, o.rounds() > 1 ? String.format(Locale.ROOT, " (medians %,.0f / %,.0f ev/s)", durableRate, memoryRate) : "",
                    median(durableOk, "p999Us") / median(memoryOk, "p999Us"), same ? "equal" : "DIFFER", checksums,
                    failed ? " (over the runs that completed)" : "",
                    uncheckpointed == 0 ? "" : String.format(Locale.ROOT,
                            "; %d of %d durable runs had NO CHECKPOINT in the timed part (their cost left out)", uncheckpointed,
                            durableOk.size()));
            rows.add(String.format(Locale.ROOT,
                    "{\"harness\":\"engine\",\"comparison\":\"state\",\"query\":\"%s\",\"cards\":%d,\"events\":%d,\"hotKeys\":%d,"
                            + "\"reservoir\":\"%s\",\"rounds\":%d,\"memoryEventsPerSecond\":%.0f,\"durableEventsPerSecond\":%.0f,"
                            + "\"durableOverMemoryThroughput\":%.4f,\"checksumsEqual\":%b,\"allCompleted\":%b}",
                    o.query(), o.cards(), o.events(), o.hotKeys(), o.disk() ? "disk" : "memory", o.rounds(), memoryRate,
                    durableRate, ratio, same, !failed));
        }
        Path out = ProcessProbes.resultsDir().resolve("engine-" + o.label() + "-compare-state.json");
        Files.write(out, rows);
        System.out.println("results: " + out.toAbsolutePath());
        if (failed || !same) {
            System.exit(1);
        }
    }

    private static double median(List<String> rows, String key) {
        double[] v = rows.stream().mapToDouble(r -> num(r, key)).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static String field(String json, String key) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(key) + "\":\"?([^,\"}]*)").matcher(json);
        if (!m.find()) {
            throw new IllegalArgumentException("no " + key + " in " + json);
        }
        return m.group(1);
    }

    private static double num(String json, String key) {
        return Double.parseDouble(field(json, key));
    }
}
