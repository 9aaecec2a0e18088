package io.railgun.bench.engine;

import io.railgun.bench.data.EventBatch;
import io.railgun.bench.data.PaymentGenerator;
import io.railgun.engine.event.EventRow;
import io.railgun.engine.plan.MetricDefinition;
import io.railgun.engine.plan.StatementBinder;
import io.railgun.engine.query.QueryParser;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.state.durable.DurableStateOptions;
import io.railgun.engine.state.durable.DurableStateStore;
import io.railgun.engine.task.TaskOptions;
import io.railgun.engine.task.TaskProcessor;
import io.railgun.engine.task.TaskStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What checkpoints write and what RocksDB holds, independent of speed: FRAUD's statements grouped
 * by card (the card task of {@code bench/run engine --query FRAUD}) in one durable task, a checkpoint
 * every {@code --checkpoint-every} events (not every 10 s of wall clock, so a slower run does not
 * take more checkpoints), event time as in E2 (the first half spans 180 days) unless {@code --rate}
 * gives the events per second of event time (e.g. 200 with a checkpoint every 2,000 events: 10 s of
 * event time between checkpoints, as a node replying in real time). Prints, for the
 * second half: bytes written by checkpoints, per checkpoint and per event; then RocksDB's directory
 * and SST files against the state read back. Run: {@code java -cp <bench classpath>
 * io.railgun.bench.engine.CheckpointVolume --cards 100000 --events 1000000 --hot-keys 20000}.
 */
public final class CheckpointVolume {
    private CheckpointVolume() {}

    public static void main(String[] args) throws Exception {
        int cards = 100_000, events = 1_000_000, hotKeys = 20_000, every = 20_000;
        double rate = 0;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--cards" -> cards = Integer.parseInt(args[++i]);
                case "--events" -> events = Integer.parseInt(args[++i]);
                case "--hot-keys" -> hotKeys = Integer.parseInt(args[++i]);
                case "--checkpoint-every" -> every = Integer.parseInt(args[++i]);
                case "--rate" -> rate = Double.parseDouble(args[++i]);
                default -> throw new IllegalArgumentException("usage: CheckpointVolume [--cards N] [--events N] [--hot-keys N]"
                        + " [--checkpoint-every EVENTS] [--rate EVENTS_PER_S_OF_EVENT_TIME]; not " + args[i]);
            }
        }
        if (rate == 0) {
            rate = (events / 2.0) / (180 * 86_400.0 * 1.01); // E2's steady state: the first half spans 180 days
        }
        PaymentGenerator gen = new PaymentGenerator(PaymentGenerator.Options.defaults().withCards(cards).withRate(rate));
        EventBatch batch = EventBatch.generate(gen, events);
        StreamDefinition stream = gen.stream("payments", 1, List.of("card"));
        Path dir = Files.createTempDirectory("railgun-checkpoint-volume");
        TaskStorage storage = TaskStorage.in(dir).withCheckpointIntervalMs(Long.MAX_VALUE / 4)
                .withState(DurableStateOptions.defaults().withHotKeys(hotKeys).withWriteBufferBytes(1L << 30));
        try (TaskProcessor task = TaskProcessor.open(stream, TaskOptions.defaults(), storage)) {
            Set<String> names = new HashSet<>();
            for (String sql : Workloads.QUERIES.get("FRAUD")) {
                if (sql.contains("GROUP BY card")) {
                    List<MetricDefinition> defs = new ArrayList<>(StatementBinder.bind(stream, QueryParser.parse(sql), names));
                    defs.forEach(d -> names.add(d.name()));
                    task.addMetrics(defs);
                }
            }
            DurableStateStore state = task.durableState();
            EventRow row = new EventRow();
            long bytes0 = 0, checkpoints0 = 0;
            for (int i = 0; i < events; i++) {
                task.process(batch.wrap(row, i), i);
                if ((i + 1) % every == 0) {
                    task.checkpoint().join();
                }
                if (i + 1 == events / 2) {
                    bytes0 = state.checkpointBytesWritten();
                    checkpoints0 = state.checkpoints();
                }
            }
            task.checkpoint().join();
            long bytes = state.checkpointBytesWritten() - bytes0;
            long checkpoints = state.checkpoints() - checkpoints0;
            long[] stored = state.storedBytes();
            long onDisk = sizeOf(dir.resolve("state"));
            System.out.printf("FRAUD by card, %,d cards, %,d events at %.3g ev/s of event time, %,d hot keys, a checkpoint every %,d events; second half:"
                            + " %,d checkpoints wrote %.1f MB (%.2f MB each, %.0f B/event), %,d evictions, %,d cold loads;"
                            + " at the end RocksDB %.1f MB on disk, SST files %.1f MB, state read back %.1f MB%n",
                    cards, events, rate, hotKeys, every, checkpoints, bytes / 1048576.0, bytes / 1048576.0 / Math.max(1, checkpoints),
                    (double) bytes / (events - events / 2), task.stats().evictions(), task.stats().coldLoads(), onDisk / 1048576.0,
                    stored[0] / 1048576.0, stored[1] / 1048576.0);
        } finally {
            try (Stream<Path> paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static long sizeOf(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            return paths.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
