package io.railgun.bench.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A node in its own JVM, started as {@code ./railgun start} starts it ({@code
 * io.railgun.node.cli.Main start}, classes from {@code node/target/classes} and {@code
 * node/target/classpath.txt}, which the build writes) with an embedded broker, a temporary data
 * directory and HTTP on a free port of 127.0.0.1. Its GC, heap and JIT are its own, as in
 * production; on a 2-core machine it still shares the cores with the injector. For {@code --node
 * http-floor[-hop]} the child runs the node's HTTP layer alone instead ({@code
 * io.railgun.node.http.HttpFloor} from {@code node/target/test-classes}), with the same JVM options. Its output goes to
 * a log file; the start-up line {@code ... serving http://...} gives its URI. {@link #close} sends
 * SIGTERM (graceful stop), and kills it if it has not stopped within a minute.
 */
final class ChildNode implements NodeUnderTest {
    private static final Pattern SERVING = Pattern.compile("serving (https?://\\S+)");
    private static final long START_TIMEOUT_MS = 180_000;

    private final Process process;
    private final URI uri;
    private final Path dataDir;
    private final Path logFile;

    private ChildNode(Process process, URI uri, Path dataDir, Path logFile) {
        this.process = process;
        this.uri = uri;
        this.dataDir = dataDir;
        this.logFile = logFile;
    }

    static ChildNode start(Path dataDir, E2eOptions o, Path logFile, Path jfrFile)
            throws IOException, InterruptedException {
        Path classes = Path.of("node", "target", "classes");
        Path classpathFile = Path.of("node", "target", "classpath.txt");
        if (!Files.isDirectory(classes) || !Files.isRegularFile(classpathFile)) {
            throw new IllegalStateException("no built node under " + classes.toAbsolutePath().getParent()
                    + ": run from the repository root after ./mvnw install -DskipTests (bench/run does both)");
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--enable-native-access=ALL-UNNAMED");
        command.addAll(Arrays.asList(o.nodeJavaOpts().strip().split("\\s+")));
        if (jfrFile != null) {
            command.add("-XX:StartFlightRecording=filename=" + jfrFile.toAbsolutePath()
                    + ",settings=profile,dumponexit=true");
        }
        command.add("-cp");
        String classpath = classes.toAbsolutePath() + ":" + Files.readString(classpathFile).strip();
        if (o.floor()) {
            Path testClasses = Path.of("node", "target", "test-classes");
            command.add(testClasses.toAbsolutePath() + ":" + classpath);
            command.addAll(List.of("io.railgun.node.http.HttpFloor", "0",
                    o.nodeMode().endsWith("-hop") ? "hop" : "inline"));
        } else {
            command.add(classpath);
            command.addAll(List.of("io.railgun.node.cli.Main", "start", "--data-dir", dataDir.toString(), "--host",
                    "127.0.0.1", "--port", "0"));
            if (o.processors() > 0) {
                command.addAll(List.of("--processors", Integer.toString(o.processors())));
            }
            command.addAll(o.nodeArgs());
        }
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        // RAILGUN_* variables of the caller's shell would configure this node too (flags win only for
        // the settings given above): the node under test gets the defaults and nothing else.
        pb.environment().keySet().removeIf(k -> k.startsWith("RAILGUN_"));
        Process process = pb.start();
        CompletableFuture<URI> serving = new CompletableFuture<>();
        Deque<String> lastLines = new ArrayDeque<>();
        Thread pump = new Thread(() -> pump(process, logFile, serving, lastLines), "node-log");
        pump.setDaemon(true);
        pump.start();
        try {
            URI uri = serving.get(START_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            return new ChildNode(process, uri, dataDir, logFile);
        } catch (ExecutionException | TimeoutException e) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            NodeUnderTest.deleteTree(dataDir);
            String tail;
            synchronized (lastLines) {
                tail = String.join("\n  ", lastLines);
            }
            throw new IllegalStateException("the node did not start (" + (e instanceof TimeoutException
                    ? "no 'serving' line within " + START_TIMEOUT_MS / 1000 + " s" : e.getCause().getMessage())
                    + "); its last lines (all in " + logFile + "):\n  " + tail, e);
        }
    }

    /** Copies the node's output to the log file, and completes {@code serving} from its start-up line. */
    private static void pump(Process process, Path logFile, CompletableFuture<URI> serving, Deque<String> lastLines) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
             PrintWriter out = new PrintWriter(Files.newBufferedWriter(logFile, StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                out.println(line);
                out.flush();
                if (!serving.isDone()) {
                    synchronized (lastLines) {
                        lastLines.addLast(line);
                        if (lastLines.size() > 20) {
                            lastLines.removeFirst();
                        }
                    }
                    Matcher m = SERVING.matcher(line);
                    if (m.find()) {
                        serving.complete(URI.create(m.group(1)));
                    }
                }
            }
        } catch (IOException e) {
            serving.completeExceptionally(e);
        }
        serving.completeExceptionally(new IllegalStateException("the node exited with code " + exitCode(process)));
    }

    private static String exitCode(Process process) {
        try {
            return process.waitFor(5, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "? (still running)";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "?";
        }
    }

    @Override
    public URI uri() {
        return uri;
    }

    @Override
    public String describe() {
        return "child JVM pid " + process.pid() + ", log " + logFile;
    }

    @Override
    public long cpuNanos() {
        return process.info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }

    @Override
    public long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                System.err.println("the node did not stop within 60 s of SIGTERM: killed");
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        NodeUnderTest.deleteTree(dataDir);
    }
}
