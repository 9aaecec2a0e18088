package io.railgun.bench.engine;

import io.railgun.bench.data.EventBatch;
import io.railgun.bench.data.PaymentGenerator;
import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.plan.MetricDefinition;
import io.railgun.engine.plan.StatementBinder;
import io.railgun.engine.query.QueryParser;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.task.Reply;
import io.railgun.engine.task.TaskOptions;
import io.railgun.engine.task.TaskProcessor;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The engine harness of BENCHMARKS.md: replays pre-generated payments through the task processors
 * of one stream in one thread (one task per partitioner, no Kafka) and prints events/s and bytes
 * allocated per event in the timed part (after a warm-up), next to the naive in-heap baseline on
 * the same events in the same run. Writes one JSON object per configuration to
 * {@code bench-results/}.
 *
 * <pre>usage: bench/run engine [--query P51|E1|EX1|FRAUD] [--events N] [--cards N] [--warmup-fraction F] [--repeat R]</pre>
 */
public final class EngineBench {
    public static void main(String[] args) throws Exception {
        String query = "E1";
        int events = 2_000_000;
        int cards = 1_000_000;
        double warmupFraction = 0.1;
        int repeat = 1;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--query" -> query = args[++i].toUpperCase(Locale.ROOT);
                case "--events" -> events = Integer.parseInt(args[++i]);
                case "--cards" -> cards = Integer.parseInt(args[++i]);
                case "--warmup-fraction" -> warmupFraction = Double.parseDouble(args[++i]);
                case "--repeat" -> repeat = Integer.parseInt(args[++i]);
                case "--help", "-h" -> {
                    System.out.println("usage: bench/run engine [--query P51|E1|EX1|FRAUD] [--events N] [--cards N] [--warmup-fraction F] [--repeat R]");
                    return;
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (see --help)");
            }
        }
        List<String> statements = Workloads.QUERIES.get(query);
        if (statements == null) {
            throw new IllegalArgumentException("unknown query " + query + "; one of " + Workloads.QUERIES.keySet());
        }
        System.out.printf("generating %,d payments over %,d cards ...%n", events, cards);
        PaymentGenerator gen = new PaymentGenerator(PaymentGenerator.Options.defaults().withCards(cards));
        EventBatch batch = EventBatch.generate(gen, events);
        StreamDefinition stream = gen.stream("payments", 1, List.of("card", "merchant"));
        int warmup = (int) (events * warmupFraction);

        List<String> results = new ArrayList<>();
        System.out.printf("%-8s %-10s %14s %14s %12s%n", "query", "engine", "events/s", "alloc B/ev", "heap MB");
        for (int r = 0; r < repeat; r++) {
            results.add(runEngine(query, statements, stream, batch, warmup));
            if (query.equals("P51") || query.equals("E1")) {
                results.add(runNaive(query, batch, warmup));
            }
        }
        Path dir = Path.of("bench-results");
        Files.createDirectories(dir);
        Path out = dir.resolve("engine-" + query.toLowerCase(Locale.ROOT) + ".json");
        Files.write(out, results);
        System.out.println("results: " + out.toAbsolutePath());
    }

    private static String runEngine(String query, List<String> statements, StreamDefinition stream, EventBatch batch, int warmup)
            throws Exception {
        System.gc();
        List<String> partitioners = new ArrayList<>();
        List<TaskProcessor> tasks = new ArrayList<>();
        Set<String> names = new HashSet<>();
        List<List<MetricDefinition>> bound = new ArrayList<>();
        for (String sql : statements) {
            List<MetricDefinition> defs = StatementBinder.bind(stream, QueryParser.parse(sql), names);
            defs.forEach(d -> names.add(d.name()));
            bound.add(defs);
            if (!partitioners.contains(defs.getFirst().partitioner())) {
                partitioners.add(defs.getFirst().partitioner());
            }
        }
        for (String p : partitioners) {
            TaskProcessor t = new TaskProcessor(stream, TaskOptions.defaults().withMinDedupHorizonMs(0));
            for (List<MetricDefinition> defs : bound) {
                if (defs.getFirst().partitioner().equals(p)) {
                    t.addMetrics(defs);
                }
            }
            tasks.add(t);
        }
        TaskProcessor[] taskArray = tasks.toArray(new TaskProcessor[0]);
        EventRow row = new EventRow();
        double checksum = 0;
        for (int i = 0; i < warmup; i++) {
            checksum += replay(taskArray, batch.wrap(row, i));
        }
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long alloc0 = mx.getCurrentThreadAllocatedBytes();
        long t0 = System.nanoTime();
        for (int i = warmup; i < batch.size(); i++) {
            checksum += replay(taskArray, batch.wrap(row, i));
        }
        long elapsedNs = System.nanoTime() - t0;
        long allocated = mx.getCurrentThreadAllocatedBytes() - alloc0;
        int timed = batch.size() - warmup;
        double evPerSec = timed / (elapsedNs / 1e9);
        double allocPerEvent = (double) allocated / timed;
        long heapMb = usedHeapMb();
        System.out.printf("%-8s %-10s %,14.0f %14.1f %12d   (checksum %.6g, %d task(s), %d cursor(s))%n",
                query, "railgun", evPerSec, allocPerEvent, heapMb, checksum, taskArray.length, taskArray[0].cursorCount());
        for (TaskProcessor t : taskArray) {
            t.close();
        }
        return String.format(Locale.ROOT,
                "{\"harness\":\"engine\",\"engine\":\"railgun\",\"query\":\"%s\",\"events\":%d,\"timedEvents\":%d,\"eventsPerSecond\":%.0f,\"allocBytesPerEvent\":%.2f,\"heapUsedMb\":%d,\"reservoir\":\"memory\",\"state\":\"memory\"}",
                query, batch.size(), timed, evPerSec, allocPerEvent, heapMb);
    }

    private static double replay(TaskProcessor[] tasks, EventRow row) {
        double sum = 0;
        for (TaskProcessor t : tasks) {
            Reply r = t.process(row);
            for (int i = 0; i < r.size(); i++) {
                if (!r.isNull(i)) {
                    sum += r.type(i) == ValueType.DOUBLE ? r.doubleValue(i) : r.longValue(i);
                }
            }
        }
        return sum;
    }

    private static String runNaive(String query, EventBatch batch, int warmup) {
        System.gc();
        NaiveBaseline naive = new NaiveBaseline(3_600_000L);
        naive.run(batch, 0, warmup);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long alloc0 = mx.getCurrentThreadAllocatedBytes();
        long t0 = System.nanoTime();
        naive.run(batch, warmup, batch.size());
        long elapsedNs = System.nanoTime() - t0;
        long allocated = mx.getCurrentThreadAllocatedBytes() - alloc0;
        int timed = batch.size() - warmup;
        double evPerSec = timed / (elapsedNs / 1e9);
        double allocPerEvent = (double) allocated / timed;
        long heapMb = usedHeapMb();
        System.out.printf("%-8s %-10s %,14.0f %14.1f %12d   (checksum %.6g)%n", query, "naive", evPerSec, allocPerEvent, heapMb, naive.checksum);
        return String.format(Locale.ROOT,
                "{\"harness\":\"engine\",\"engine\":\"naive-heap\",\"query\":\"%s\",\"events\":%d,\"timedEvents\":%d,\"eventsPerSecond\":%.0f,\"allocBytesPerEvent\":%.2f,\"heapUsedMb\":%d}",
                query, batch.size(), timed, evPerSec, allocPerEvent, heapMb);
    }

    private static long usedHeapMb() {
        Runtime rt = Runtime.getRuntime();
        return (rt.totalMemory() - rt.freeMemory()) >> 20;
    }


}
