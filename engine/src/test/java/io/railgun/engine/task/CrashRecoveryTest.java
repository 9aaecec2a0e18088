package io.railgun.engine.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.local.LocalStream;
import io.railgun.engine.oracle.ExpectedValue;
import io.railgun.engine.oracle.MetricQuery;
import io.railgun.engine.oracle.OracleReply;
import io.railgun.engine.oracle.OracleStream;
import io.railgun.engine.oracle.PaymentCaseGenerator;
import io.railgun.engine.oracle.Rows;
import io.railgun.engine.oracle.SqlValues;
import io.railgun.engine.oracle.StreamCase;
import io.railgun.engine.oracle.TaskOutcome;
import io.railgun.engine.oracle.Tolerance;
import io.railgun.engine.plan.MetricDefinition;
import io.railgun.engine.plan.StatementBinder;
import io.railgun.engine.query.QueryParser;
import io.railgun.engine.reservoir.disk.DiskReservoirOptions;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.state.durable.DurableStateOptions;
import io.railgun.engine.state.durable.DurableStateStore;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;

/**
 * Durable tasks killed by SIGKILL at random points, out of process: a child JVM ({@link #main})
 * runs every task of a generated case — one durable {@link TaskProcessor} per (partitioner,
 * partition), each with a DiskReservoir and a DurableStateStore whose hot tier holds
 * {@value #HOT_KEYS} keys, a {@value #WRITE_BUFFER_BYTES}-byte write buffer and a 1 ms checkpoint
 * interval, so a checkpoint is being written most of the time — and prints one line per reply. The
 * parent kills it with {@link ProcessHandle#destroyForcibly()} (SIGKILL on Linux) after a random number
 * of replies, right after it reports starting a checkpoint, or after a random delay (which also
 * lands in JVM start-up, restore and statement set-up), then starts it again on the same
 * directories, until a run ends by itself. Each run restores every task from its last complete
 * checkpoint and replays that task's input (the events routed to it, offset = index in that list)
 * from {@link TaskProcessor#resumeOffset()}, in the global event order, exactly as the node will
 * replay a Kafka partition.
 *
 * <p>The parent then checks, against the {@link OracleStream} run once over the whole case:
 * <ul>
 *   <li>every reply printed by any run, first answers and replays alike, has the oracle's status,
 *       timestamp, stream time, metric names and values ({@link Tolerance}, as
 *       {@link io.railgun.engine.oracle.ExactnessRunner} judges them);
 *   <li>every (event, task) was answered by some run; the only exception allowed is the event a
 *       task was processing when it was killed, after a checkpoint already covering it (the reply
 *       was lost with the process, and the restart rightly does not replay it);
 *   <li>each restored resume offset is at least that of every checkpoint the killed run saw
 *       complete, and at most one past the events the task had processed; the replay of a run
 *       starts exactly there and is gap-free;
 *   <li>the final run closes its tasks (a final checkpoint) and they reopen with nothing to replay.
 * </ul>
 * Every seed must have at least one kill during the replay. The output counts, per seed, the kills
 * that landed with a checkpoint being written (the child's last line before it died was a
 * checkpoint start, or a reply after which some task's checkpoint was still running) and those
 * that provably cut one off (the restart restored an older checkpoint than the one the child had
 * started and not seen complete).
 *
 * <p>The in-process variant (abandon, restore, replay) is {@code ExactnessWithCrashesTest}.
 * Seeds can be replaced with {@code -Drailgun.crash.seeds=1,2,3}.
 */
public class CrashRecoveryTest {
    static final int HOT_KEYS = 1;
    static final long WRITE_BUFFER_BYTES = 1024;
    static final PaymentCaseGenerator.Settings SETTINGS =
            new PaymentCaseGenerator.Settings(300, 1500, 2, 4, false, 0, PaymentCaseGenerator.Magnitudes.MIXED);
    private static final long[] SEEDS = {11L, 31_337L, 777_001L, -5_381L};
    private static final long RUN_TIMEOUT_MS = 60_000;
    private static final int MAX_RUNS = 30;
    private static final String END = " ;";
    private static final long[] TOTALS = new long[7]; // seeds, events, runs, kills, mid-checkpoint, cut off, ms
    private static Path nativeLibraries; // RocksDB's JNI library, extracted once for every child

    // ------------------------------------------------------------------------------------------
    // shared by parent and child: the case's routing and the tasks' storage
    // ------------------------------------------------------------------------------------------

    /**
     * Where each event goes: per event and partitioner (in the stream's order) the task index
     * {@code partitionerIndex * partitions + partition} and the offset in that task's input.
     */
    record Routing(List<String> partitioners, int partitions, int[][] task, int[][] offset, int[] taskSize) {
        static Routing of(StreamCase c) {
            StreamDefinition def = c.definition();
            Schema schema = def.schema();
            List<String> ps = def.partitioners();
            int partitions = def.partitions();
            int n = c.events().size();
            int[][] task = new int[n][ps.size()];
            int[][] offset = new int[n][ps.size()];
            int[] size = new int[ps.size() * partitions];
            EventRowWriter writer = new EventRowWriter();
            for (int e = 0; e < n; e++) {
                EventRow row = Rows.write(writer, schema, c.events().get(e));
                for (int pi = 0; pi < ps.size(); pi++) {
                    int k = pi * partitions + LocalStream.partitionOf(row, schema.field(ps.get(pi)), partitions);
                    task[e][pi] = k;
                    offset[e][pi] = size[k]++;
                }
            }
            return new Routing(ps, partitions, task, offset, size);
        }

        int taskCount() {
            return taskSize.length;
        }

        String partitionerOf(int k) {
            return partitioners.get(k / partitions);
        }

        int partitionOf(int k) {
            return k % partitions;
        }

        String name(int k) {
            return partitionerOf(k) + "#" + partitionOf(k);
        }
    }

    static TaskStorage storage(Path root, String partitioner, int partition) {
        return TaskStorage.in(root.resolve(partitioner + "-" + partition))
                .withState(DurableStateOptions.defaults().withHotKeys(HOT_KEYS).withWriteBufferBytes(WRITE_BUFFER_BYTES))
                .withReservoir(DiskReservoirOptions.defaults().withChunkTargetBytes(512).withSegmentMaxBytes(8 * 1024)
                        .withCache(2, 1 << 20))
                .withCheckpointIntervalMs(1);
    }

    static TaskOptions options(StreamCase c) {
        return new TaskOptions(InstantSource.fixed(Instant.ofEpochMilli(c.timeOrigin())), c.minDedupHorizonMs());
    }

    // ------------------------------------------------------------------------------------------
    // the child JVM
    // ------------------------------------------------------------------------------------------

    /**
     * The child: {@code <seed> <directory>}. Prints, one write per line, each ending with " ;":
     * <pre>
     * &#64;R k resumeOffset metricCount     task k restored
     * &#64;C k offset                       a checkpoint with resume offset {@code offset} started (statement checkpoints too)
     * &#64;K k                              every checkpoint task k started so far is complete
     * &#64;S                                statements in place, replay starts
     * &#64;E event k offset status timestamp streamTime inflight n name value ...   one reply
     * &#64;F k resumeOffset                 after the final close, task k reopened
     * &#64;D                                done
     * </pre>
     * {@code inflight} is the number of tasks with a checkpoint being written right after the
     * reply; names are base64url, values {@code ~} (null), {@code L}long, {@code D}hex bits of a
     * double, {@code B0}/{@code B1}, {@code S}base64url of UTF-8.
     */
    public static void main(String[] args) throws Exception {
        long seed = Long.parseLong(args[0]);
        Path root = Path.of(args[1]);
        StreamCase c = PaymentCaseGenerator.generate(seed, SETTINGS);
        StreamDefinition def = c.definition();
        Routing routing = Routing.of(c);
        TaskOptions options = options(c);
        Out out = new Out();
        int tasksCount = routing.taskCount();
        TaskProcessor[] tasks = new TaskProcessor[tasksCount];
        long[] resume = new long[tasksCount];
        for (int k = 0; k < tasksCount; k++) {
            tasks[k] = TaskProcessor.open(def, options, storage(root, routing.partitionerOf(k), routing.partitionOf(k)));
            resume[k] = tasks[k].resumeOffset();
            out.line("@R " + k + " " + resume[k] + " " + tasks[k].metricNames().length);
        }
        // statements: a task restores the ones it had; a kill during set-up leaves some tasks without
        // the last ones (adding takes a checkpoint synchronously), which have then counted nothing
        Set<String> names = new HashSet<>();
        for (MetricQuery q : c.statements()) {
            List<MetricDefinition> defs = StatementBinder.bind(def, QueryParser.parse(q.sql(def.name())), names);
            defs.forEach(d -> names.add(d.name()));
            int pi = routing.partitioners().indexOf(defs.getFirst().partitioner());
            for (int i = 0; i < routing.partitions(); i++) {
                int k = pi * routing.partitions() + i;
                if (!Arrays.asList(tasks[k].metricNames()).contains(defs.getFirst().name())) {
                    if (resume[k] != 0) {
                        throw new IllegalStateException("task " + routing.name(k) + " restored at offset " + resume[k]
                                + " without the metrics of " + q.sql(def.name()) + "; it has " + Arrays.toString(tasks[k].metricNames()));
                    }
                    tasks[k].addMetrics(defs);
                    out.line("@C " + k + " " + tasks[k].resumeOffset());
                    out.line("@K " + k);
                }
            }
        }
        out.line("@S");
        Schema schema = def.schema();
        boolean[] pending = new boolean[tasksCount];
        long[] begunAt = new long[tasksCount]; // the offset the last checkpoint begun resumes at
        StringBuilder sb = new StringBuilder(256);
        for (int e = 0; e < c.events().size(); e++) {
            EventRow row = null;
            for (int pi = 0; pi < routing.partitioners().size(); pi++) {
                int k = routing.task()[e][pi];
                int o = routing.offset()[e][pi];
                if (o < resume[k]) {
                    continue;
                }
                if (row == null) {
                    row = Rows.fresh(schema, c.events().get(e));
                }
                DurableStateStore ds = tasks[k].durableState();
                boolean begunBefore = ds.checkpointBegun();
                boolean before = ds.checkpointRunning();
                Reply r = tasks[k].process(row, o);
                boolean after = ds.checkpointRunning();
                if (!begunBefore && (ds.checkpointBegun() || !before && after)) {
                    // begun after this event: its snapshot is saved over the next events (a few keys
                    // each), and handed to the writer when complete, perhaps some events later
                    begunAt[k] = o + 1;
                }
                int inflight = 0;
                for (TaskProcessor t : tasks) {
                    inflight += t.durableState().checkpointRunning() ? 1 : 0;
                }
                sb.setLength(0);
                sb.append("@E ").append(e).append(' ').append(k).append(' ').append(o).append(' ').append(r.status()).append(' ')
                        .append(r.timestamp()).append(' ').append(r.streamTime()).append(' ').append(inflight).append(' ').append(r.size());
                for (int m = 0; m < r.size(); m++) {
                    sb.append(' ').append(b64(r.name(m))).append(' ').append(encode(r.value(m)));
                }
                out.line(sb.toString());
                if (pending[k] && !before) {
                    out.line("@K " + k);
                    pending[k] = false;
                }
                if (!before && after) {
                    // nothing was being written before this event, so exactly one checkpoint went to the
                    // writer in it: the one begun last
                    out.line("@C " + k + " " + begunAt[k]);
                    pending[k] = true;
                } else if (pending[k] && !after) {
                    out.line("@K " + k);
                    pending[k] = false;
                }
            }
        }
        for (TaskProcessor t : tasks) {
            t.close();
        }
        for (int k = 0; k < tasksCount; k++) {
            TaskProcessor t = TaskProcessor.open(def, options, storage(root, routing.partitionerOf(k), routing.partitionOf(k)));
            out.line("@F " + k + " " + t.resumeOffset());
            t.abandon();
        }
        out.line("@D");
        System.exit(0);
    }

    /** Unbuffered stdout, one write(2) per line, so a SIGKILL never loses a line already printed. */
    private static final class Out {
        private final FileOutputStream out = new FileOutputStream(FileDescriptor.out);

        void line(String s) throws IOException {
            out.write((s + END + "\n").getBytes(StandardCharsets.US_ASCII));
        }
    }

    private static String b64(String s) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String unb64(String s) {
        return new String(Base64.getUrlDecoder().decode(s), StandardCharsets.UTF_8);
    }

    static String encode(Object v) {
        return switch (v) {
            case null -> "~";
            case Long l -> "L" + l;
            case Double d -> "D" + Long.toHexString(Double.doubleToRawLongBits(d));
            case Boolean b -> b ? "B1" : "B0";
            case String s -> "S" + b64(s);
            default -> throw new IllegalArgumentException("unexpected value type " + v.getClass());
        };
    }

    static Object decode(String s) {
        return switch (s.charAt(0)) {
            case '~' -> null;
            case 'L' -> Long.parseLong(s.substring(1));
            case 'D' -> Double.longBitsToDouble(Long.parseUnsignedLong(s.substring(1), 16));
            case 'B' -> s.charAt(1) == '1';
            case 'S' -> unb64(s.substring(1));
            default -> throw new IllegalArgumentException("bad value " + s);
        };
    }

    // ------------------------------------------------------------------------------------------
    // the parent
    // ------------------------------------------------------------------------------------------

    private enum KillMode { AFTER_REPLIES, AT_CHECKPOINT_START, AFTER_DELAY }

    /** One child run: its lines (complete ones, plus a partial last line when killed mid-write). */
    private record Run(int number, List<String> lines, boolean killed, KillMode mode, int exitCode, String stderr, String timing) {}

    static LongStream seeds() {
        String override = System.getProperty("railgun.crash.seeds");
        if (override == null || override.isBlank()) {
            return Arrays.stream(SEEDS);
        }
        return Arrays.stream(override.split(",")).map(String::trim).mapToLong(Long::parseLong);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void everyReplyAcrossSigkillsEqualsTheOracle(long seed, @TempDir Path dir) throws Exception {
        long started = System.nanoTime();
        StreamCase c = PaymentCaseGenerator.generate(seed, SETTINGS);
        Routing routing = Routing.of(c);
        Oracle oracle = oracle(c);
        Path root = Files.createDirectories(dir.resolve("tasks"));
        Path tmp = Files.createDirectories(dir.resolve("tmp")); // the child's java.io.tmpdir: RocksDB's extracted library
        Random random = new Random(seed * 0x9E3779B97F4A7C15L + 1);
        int plannedKills = 3 + random.nextInt(6);

        List<Run> runs = new ArrayList<>();
        int kills = 0;
        while (true) {
            assertThat(runs.size()).as("runs of seed %d", seed).isLessThan(MAX_RUNS);
            KillMode mode = null;
            if (kills < plannedKills) {
                // the first run replays everything: its kill always lands mid-replay
                double d = runs.isEmpty() ? random.nextDouble() * 0.8 : random.nextDouble();
                mode = d < 0.35 ? KillMode.AFTER_REPLIES : d < 0.8 ? KillMode.AT_CHECKPOINT_START : KillMode.AFTER_DELAY;
            }
            Run run = runChild(seed, root, tmp, runs.size(), mode, random, c.events().size());
            runs.add(run);
            if (run.killed()) {
                kills++;
                continue;
            }
            assertThat(run.exitCode()).as("exit code of run %d of seed %d; stderr:%n%s", run.number(), seed, run.stderr()).isZero();
            break;
        }
        Verdict v = verify(c, routing, oracle, runs);
        long ms = (System.nanoTime() - started) / 1_000_000;
        String summary = String.format(Locale.ROOT,
                "[crash recovery] seed %d: %d events, %d tasks (inputs %s), %d statements; %d runs, %d SIGKILLs (%d before replay started,"
                        + " %d while replaying, %d of them with a checkpoint being written, %d cutting one off before it committed);"
                        + " %d replies checked (%d replayed), %d lost with a killed process; %d ms; %s%n"
                        + "    runs (ms to first line/replay/end of output):%n      %s",
                seed, c.events().size(), routing.taskCount(), Arrays.toString(routing.taskSize()), c.statements().size(), runs.size(), kills, v.killsBeforeReplay,
                v.killsWhileReplaying, v.killsMidCheckpoint, v.checkpointsCutOff, v.replies, v.replayed, v.lostReplies, ms, c.profile(),
                String.join(String.format("%n      "), runs.stream().map(Run::timing).toList()));
        System.out.println(summary);
        synchronized (TOTALS) {
            long[] add = {1, c.events().size(), runs.size(), kills, v.killsMidCheckpoint, v.checkpointsCutOff, ms};
            for (int i = 0; i < add.length; i++) {
                TOTALS[i] += add[i];
            }
        }
        if (!v.problems.isEmpty()) {
            throw new AssertionError("seed " + seed + ": " + v.problems.size() + " problem(s) with " + c + "\n  "
                    + String.join("\n  ", v.problems.subList(0, Math.min(40, v.problems.size()))) + "\n" + summary);
        }
        assertThat(v.killsWhileReplaying).as("kills that landed while the child was replying, seed %d", seed).isPositive();
    }

    /**
     * Extracts RocksDB's JNI library once, for the children to load from {@code java.library.path}:
     * otherwise every child copies it (17 MB) to its temporary directory on start-up. When it is not
     * found, the children extract it themselves.
     */
    @BeforeAll
    static void extractRocksDbLibrary(@TempDir Path dir) throws IOException {
        String name = Environment.getJniLibraryFileName("rocksdb");
        try (InputStream in = RocksDB.class.getClassLoader().getResourceAsStream(name)) {
            if (in != null) {
                Files.copy(in, dir.resolve(name));
                nativeLibraries = dir;
            }
        }
    }

    @AfterAll
    static void report() {
        synchronized (TOTALS) {
            System.out.printf(Locale.ROOT, "[crash recovery] total: %d seeds, %d events, %d child runs, %d SIGKILLs, %d with a checkpoint"
                    + " being written, %d cutting one off before it committed; %d ms%n", TOTALS[0], TOTALS[1], TOTALS[2], TOTALS[3],
                    TOTALS[4], TOTALS[5], TOTALS[6]);
        }
    }

    private static Oracle oracle(StreamCase c) {
        Schema schema = c.definition().schema();
        EventRowWriter writer = new EventRowWriter();
        OracleStream oracle = new OracleStream(c.definition(), c.minDedupHorizonMs(), (event, partitioner, partitions) ->
                LocalStream.partitionOf(Rows.write(writer, schema, event), schema.field(partitioner), partitions));
        for (MetricQuery q : c.statements()) {
            oracle.addStatement(q, true);
        }
        List<OracleReply> replies = new ArrayList<>(c.events().size());
        for (var event : c.events()) {
            replies.add(oracle.process(event));
        }
        return new Oracle(oracle, replies);
    }

    private record Oracle(OracleStream stream, List<OracleReply> replies) {}

    private Run runChild(long seed, Path root, Path tmp, int number, KillMode mode, Random random, int events) throws Exception {
        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Path stderr = root.resolveSibling("stderr-" + number + ".txt");
        List<String> command = new ArrayList<>(List.of(java, "-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "--enable-native-access=ALL-UNNAMED", "-Djava.io.tmpdir=" + tmp));
        if (nativeLibraries != null) {
            command.add("-Djava.library.path=" + nativeLibraries);
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), CrashRecoveryTest.class.getName(), Long.toString(seed),
                root.toString()));
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(stderr.toFile());
        long start = System.nanoTime();
        Process p = pb.start();
        BlockingQueue<String> queue = new LinkedBlockingQueue<>();
        List<String> lines = new ArrayList<>();
        String eof = new String("<eof>");
        long[] marks = new long[3]; // first line, replay start, end of output
        Throwable[] readFailure = new Throwable[1]; // why the reader stopped before the end of the output
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
            // reads to the end of the output, a killed run's included: its last lines tell which checkpoints
            // may have completed, so a run is never judged on part of its output (see kill)
            try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII))) {
                for (String line; (line = in.readLine()) != null; ) {
                    synchronized (lines) {
                        lines.add(line);
                    }
                    if (marks[0] == 0) {
                        marks[0] = System.nanoTime();
                    }
                    if (line.startsWith("@S")) {
                        marks[1] = System.nanoTime();
                    }
                    queue.add(line);
                }
                marks[2] = System.nanoTime();
            } catch (Throwable t) {
                readFailure[0] = t;
            } finally {
                queue.add(eof);
            }
        });
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(RUN_TIMEOUT_MS);
        long killAt = mode == KillMode.AFTER_DELAY ? start + TimeUnit.MILLISECONDS.toNanos(150 + random.nextInt(1200)) : Long.MAX_VALUE;
        int target = -1;
        int armedAt = -1;
        boolean killed = false;
        while (true) {
            long now = System.nanoTime();
            if (now >= deadline) {
                p.destroyForcibly();
                throw new AssertionError("run " + number + " of seed " + seed + " took more than " + RUN_TIMEOUT_MS + " ms");
            }
            if (now >= killAt) {
                killed = kill(p);
                break;
            }
            String line = queue.poll(Math.min(deadline, killAt) - now, TimeUnit.NANOSECONDS);
            if (line == null) {
                continue;
            }
            if (line == eof) {
                break;
            }
            if (mode == KillMode.AFTER_REPLIES || mode == KillMode.AT_CHECKPOINT_START) {
                if (line.startsWith("@E ")) {
                    int e = Integer.parseInt(line.substring(3, line.indexOf(' ', 3)));
                    if (target < 0) {
                        target = e + random.nextInt(Math.max(1, (events - e) * 9 / 10));
                    }
                    if (e >= target) {
                        // no checkpoint starting within 64 events of the target: kill anyway
                        if (mode == KillMode.AFTER_REPLIES || armedAt >= 0 && e >= armedAt + 64) {
                            killed = kill(p);
                            break;
                        }
                        if (armedAt < 0) {
                            armedAt = e;
                        }
                    }
                } else if (armedAt >= 0 && line.startsWith("@C ")) {
                    killed = kill(p);
                    break;
                }
            }
        }
        p.waitFor();
        // the child is gone: what is left of its output is in the pipe (at most its capacity), which the
        // reader drains to the end of the file
        reader.join(RUN_TIMEOUT_MS);
        if (reader.isAlive() || readFailure[0] != null) {
            AssertionError e = new AssertionError("run " + number + " of seed " + seed + ": the child's output was not read to its end ("
                    + (reader.isAlive() ? "still reading after " + RUN_TIMEOUT_MS + " ms" : "reader stopped: " + readFailure[0])
                    + "); its lines cannot be checked");
            if (readFailure[0] != null) {
                e.initCause(readFailure[0]);
            }
            throw e;
        }
        List<String> all;
        synchronized (lines) {
            all = List.copyOf(lines);
        }
        // killed after it had finished: a clean run; killed just as it failed (uncaught exception: 1): a failure
        boolean done = !all.isEmpty() && all.getLast().equals("@D" + END);
        killed &= !done && p.exitValue() != 1;
        int exit = killed || done ? 0 : p.exitValue();
        StringBuilder resumes = new StringBuilder();
        int checkpoints = 0;
        for (String line : all) {
            if (line.startsWith("@R ")) {
                resumes.append(resumes.isEmpty() ? "" : ",").append(line.split(" ")[2]);
            } else if (line.startsWith("@C ")) {
                checkpoints++;
            }
        }
        String timing = String.format(Locale.ROOT, "%s%s from [%s], %d checkpoints seen starting, %d/%d/%d ms",
                killed ? "killed " : "", mode == null ? "-" : mode, resumes, checkpoints, ms(marks[0], start), ms(marks[1], start),
                ms(marks[2], start));
        return new Run(number, all, killed, mode, exit, Files.exists(stderr) ? Files.readString(stderr) : "", timing);
    }

    private static long ms(long mark, long start) {
        return mark == 0 ? -1 : (mark - start) / 1_000_000;
    }

    /**
     * SIGKILLs the child through its {@link ProcessHandle}, not {@link Process#destroyForcibly()}: the latter
     * also closes the parent's end of the child's stdout, so the reader would stop at "Stream closed" and
     * lose the lines still in the pipe — replies and checkpoint starts the child printed before it died,
     * whose checkpoints may have completed (the reader lags the child most when the machine is loaded).
     * The restart would then restore past what the parent saw answered.
     */
    private static boolean kill(Process p) {
        boolean alive = p.isAlive();
        p.toHandle().destroyForcibly();
        return alive;
    }

    // ------------------------------------------------------------------------------------------
    // verification
    // ------------------------------------------------------------------------------------------

    private static final class Verdict {
        final List<String> problems = new ArrayList<>();
        int replies;
        int replayed;
        int lostReplies;
        int killsBeforeReplay;
        int killsWhileReplaying;
        int killsMidCheckpoint;
        int checkpointsCutOff;

        void problem(String s) {
            if (problems.size() < 1000) {
                problems.add(s);
            }
        }
    }

    private static Verdict verify(StreamCase c, Routing routing, Oracle truth, List<Run> runs) {
        Verdict v = new Verdict();
        OracleStream oracle = truth.stream();
        List<OracleReply> expected = truth.replies();
        Map<Integer, long[]> cutOff = new HashMap<>(); // per killed run: the checkpoints still pending when it died
        int tasksCount = routing.taskCount();
        int np = routing.partitioners().size();
        int n = c.events().size();
        // the oracle's metrics of each partitioner, in creation order
        List<List<String>> expectedNames = new ArrayList<>();
        for (String p : routing.partitioners()) {
            List<String> names = new ArrayList<>();
            for (String m : oracle.metricNames()) {
                if (p.toLowerCase(Locale.ROOT).equals(oracle.partitionerOf(oracle.queryOf(m)))) {
                    names.add(m);
                }
            }
            expectedNames.add(names);
        }
        boolean[][] seen = new boolean[n][np];
        long[] frontier = new long[tasksCount]; // one past the highest offset replied to, or the highest restored
        long[] knownComplete = new long[tasksCount]; // resume offset of a checkpoint a run saw complete
        long[] lastStarted = new long[tasksCount];
        long[] pendingStart = new long[tasksCount]; // a checkpoint started and not seen complete, or -1
        // (event, task) pairs a killed run was processing when it died, excused if the next restore skips them
        List<int[]> inProgress = new ArrayList<>();
        long[][] resumes = new long[runs.size()][];

        for (Run run : runs) {
            String where = "run " + run.number() + (run.killed() ? " (killed " + run.mode() + ")" : "");
            long[] resume = new long[tasksCount];
            Arrays.fill(resume, -1);
            long[] next = new long[tasksCount];
            Arrays.fill(pendingStart, -1);
            boolean replaying = false;
            int lastEvent = -1;
            int lastTask = -1;
            String lastComplete = null;
            List<String> lines = run.lines();
            for (int li = 0; li < lines.size(); li++) {
                String raw = lines.get(li);
                if (!raw.endsWith(END)) {
                    if (!(run.killed() && li == lines.size() - 1) && raw.startsWith("@")) {
                        v.problem(where + ": truncated line " + raw);
                    }
                    continue;
                }
                if (!raw.startsWith("@")) {
                    continue; // not ours (a library writing to stdout)
                }
                lastComplete = raw;
                String[] f = raw.substring(0, raw.length() - END.length()).split(" ");
                switch (f[0]) {
                    case "@R" -> {
                        int k = Integer.parseInt(f[1]);
                        long r = Long.parseLong(f[2]);
                        resume[k] = r;
                        next[k] = r;
                        if (r < knownComplete[k]) {
                            v.problem(where + ": task " + routing.name(k) + " restored at offset " + r
                                    + " but a checkpoint at offset " + knownComplete[k] + " had completed");
                        }
                        if (r > frontier[k] + 1 || r > routing.taskSize()[k]) {
                            v.problem(where + ": task " + routing.name(k) + " restored at offset " + r + " but had processed at most "
                                    + Math.min(frontier[k] + 1, routing.taskSize()[k]) + " events");
                        }
                        frontier[k] = Math.max(frontier[k], r);
                    }
                    case "@C" -> {
                        int k = Integer.parseInt(f[1]);
                        lastStarted[k] = Long.parseLong(f[2]);
                        pendingStart[k] = lastStarted[k];
                    }
                    case "@K" -> {
                        int k = Integer.parseInt(f[1]);
                        knownComplete[k] = Math.max(knownComplete[k], lastStarted[k]);
                        pendingStart[k] = -1;
                    }
                    case "@S" -> replaying = true;
                    case "@E" -> {
                        int e = Integer.parseInt(f[1]);
                        int k = Integer.parseInt(f[2]);
                        long o = Long.parseLong(f[3]);
                        int pi = k / routing.partitions();
                        if (e < 0 || e >= n || routing.task()[e][pi] != k || routing.offset()[e][pi] != o) {
                            v.problem(where + ": reply for event " + e + " from task " + routing.name(k) + " at offset " + o
                                    + " does not match the routing");
                            continue;
                        }
                        if (o != next[k]) {
                            v.problem(where + ": task " + routing.name(k) + " replied at offset " + o + " but its replay was at " + next[k]
                                    + " (restored at " + resume[k] + ")");
                        }
                        next[k] = o + 1;
                        frontier[k] = Math.max(frontier[k], o + 1);
                        v.replies++;
                        if (seen[e][pi]) {
                            v.replayed++;
                        }
                        seen[e][pi] = true;
                        lastEvent = e;
                        lastTask = pi;
                        compare(v, where, routing, e, k, o, f, expected.get(e), expectedNames.get(pi), oracle);
                    }
                    case "@F" -> {
                        int k = Integer.parseInt(f[1]);
                        long r = Long.parseLong(f[2]);
                        if (r != routing.taskSize()[k]) {
                            v.problem(where + ": after the final close, task " + routing.name(k) + " reopened at offset " + r + ", not "
                                    + routing.taskSize()[k]);
                        }
                    }
                    case "@D" -> {
                        if (run.killed()) {
                            v.problem(where + ": killed, yet it printed DONE");
                        }
                    }
                    default -> v.problem(where + ": unknown line " + raw);
                }
            }
            boolean allRestored = Arrays.stream(resume).allMatch(r -> r >= 0);
            resumes[run.number()] = allRestored ? resume : null;
            if (run.killed()) {
                if (replaying) {
                    v.killsWhileReplaying++;
                } else {
                    v.killsBeforeReplay++;
                }
                if (lastComplete != null && (lastComplete.startsWith("@C ") && replaying
                        || lastComplete.startsWith("@E ") && !lastComplete.split(" ")[7].equals("0"))) {
                    v.killsMidCheckpoint++;
                }
                if (replaying && allRestored) {
                    // the pair the child was working on when it died: the first after the last one it printed
                    int[] pair = nextPair(routing, resume, lastEvent, lastTask);
                    if (pair != null) {
                        inProgress.add(new int[] {run.number(), pair[0], pair[1]});
                    }
                }
                if (allRestored) {
                    cutOff.put(run.number(), pendingStart.clone());
                }
            } else {
                if (!"@D ;".equals(lastComplete)) {
                    v.problem(where + ": ended without DONE; stderr:\n" + run.stderr());
                }
                for (int k = 0; k < tasksCount; k++) {
                    if (next[k] != routing.taskSize()[k]) {
                        v.problem(where + ": task " + routing.name(k) + " stopped replying at offset " + next[k] + " of "
                                + routing.taskSize()[k]);
                    }
                }
            }
        }
        // checkpoints that a kill cut off: started, not seen complete, and not what the next restore found
        for (var entry : cutOff.entrySet()) {
            long[] restored = nextResume(resumes, entry.getKey());
            if (restored == null) {
                continue;
            }
            long[] pending = entry.getValue();
            for (int k = 0; k < tasksCount; k++) {
                if (pending[k] >= 0 && restored[k] < pending[k]) {
                    v.checkpointsCutOff++;
                    break;
                }
            }
        }
        // every (event, task) answered by some run, but the one a killed run was processing when it died
        // when the next restore already counts it
        for (int e = 0; e < n; e++) {
            for (int pi = 0; pi < np; pi++) {
                if (seen[e][pi]) {
                    continue;
                }
                int k = routing.task()[e][pi];
                int o = routing.offset()[e][pi];
                boolean excused = false;
                for (int[] ip : inProgress) {
                    long[] restored = nextResume(resumes, ip[0]);
                    if (ip[1] == e && ip[2] == pi && restored != null && restored[k] == o + 1) {
                        excused = true;
                    }
                }
                if (excused) {
                    v.lostReplies++;
                } else {
                    v.problem("event " + e + " was never answered by task " + routing.name(k) + " (offset " + o + ")");
                }
            }
        }
        return v;
    }

    /** The resume offsets of the first run after {@code run} that restored every task, or null. */
    private static long[] nextResume(long[][] resumes, int run) {
        for (int r = run + 1; r < resumes.length; r++) {
            if (resumes[r] != null) {
                return resumes[r];
            }
        }
        return null;
    }

    /** The (event, partitioner index) the child processes after ({@code event}, {@code pi}), or null at the end. */
    private static int[] nextPair(Routing routing, long[] resume, int event, int pi) {
        int np = routing.partitioners().size();
        int e = event < 0 ? 0 : event;
        int p = event < 0 ? 0 : pi + 1;
        for (; e < routing.task().length; e++, p = 0) {
            for (; p < np; p++) {
                if (routing.offset()[e][p] >= resume[routing.task()[e][p]]) {
                    return new int[] {e, p};
                }
            }
        }
        return null;
    }

    private static void compare(Verdict v, String where, Routing routing, int e, int k, long o, String[] f, OracleReply expected,
                                List<String> names, OracleStream oracle) {
        String at = where + ": event " + e + " task " + routing.name(k) + " offset " + o + ": ";
        TaskOutcome outcome = expected.tasks().get(k / routing.partitions());
        if (outcome.partition() != routing.partitionOf(k)) {
            v.problem(at + "the oracle routed it to partition " + outcome.partition());
            return;
        }
        String status = f[4];
        String expectedStatus = switch (outcome.status()) {
            case COUNTED, REWRITTEN -> ReplyStatus.COUNTED.name();
            case DUPLICATE -> ReplyStatus.DUPLICATE.name();
            case DROPPED_LATE -> ReplyStatus.DROPPED_LATE.name();
        };
        if (!status.equals(expectedStatus)) {
            v.problem(at + "status " + status + ", expected " + outcome.status());
        }
        if (Long.parseLong(f[5]) != outcome.timestamp()) {
            v.problem(at + "counted at " + f[5] + ", expected " + outcome.timestamp());
        }
        if (Long.parseLong(f[6]) != outcome.streamTime()) {
            v.problem(at + "stream time " + f[6] + ", expected " + outcome.streamTime());
        }
        int size = Integer.parseInt(f[8]);
        List<String> actualNames = new ArrayList<>();
        for (int m = 0; m < size; m++) {
            actualNames.add(unb64(f[9 + 2 * m]));
        }
        if (!actualNames.equals(names)) {
            v.problem(at + "metrics " + actualNames + ", expected " + names);
            return;
        }
        for (int m = 0; m < size; m++) {
            ExpectedValue ev = expected.metrics().get(names.get(m));
            Object actual = decode(f[10 + 2 * m]);
            String why = Tolerance.check(ev, actual);
            if (why != null) {
                v.problem(at + names.get(m) + " (" + ev.kind() + "/" + oracle.queryOf(names.get(m)).window().label() + "): " + why
                        + " [expected " + SqlValues.show(ev.value()) + "]");
            }
        }
    }
}
