package io.railgun.node.cli.client.send;

import io.railgun.client.FieldType;
import io.railgun.client.RailgunClient;
import io.railgun.client.StreamSpec;
import io.railgun.node.cli.client.ClientCommand;
import io.railgun.node.cli.client.ClientContext;
import io.railgun.node.cli.client.CommandFailure;
import io.railgun.node.cli.client.ExitCode;
import io.railgun.node.cli.client.NodeTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code railgun send STREAM [FILE|-]}: sends events from NDJSON or CSV through
 * {@code POST /v1/streams/STREAM/events:batch} ({@link BatchSender}), writes the replies as NDJSON,
 * draws a progress bar when stderr is a terminal and ends with a summary line on stderr; on Ctrl-C
 * (SIGINT, SIGTERM) a shutdown hook prints what was sent so far. Runs on the main thread.
 */
@Command(name = "send", header = "Send events from an NDJSON or CSV file (or standard input) in batches;"
        + " write the replies as NDJSON.",
        description = {"NDJSON: one JSON object per line, sent as written. CSV: a header row naming fields of the"
                + " stream, then one event per row; each cell is converted by its field's type (long, double,"
                + " boolean true/false, timestamp as epoch milliseconds or ISO-8601, string); an empty cell is NULL,"
                + " a quoted empty cell (\"\") an empty string.",
                "Replies go to standard output (or --output), one line per event in input order. A batch the node"
                        + " answers 503 (or does not answer in time) is sent again after its Retry-After: its events"
                        + " count once, as their ids are deduplicated. On any other error send stops, naming the line;"
                        + " sending the whole input again is then safe (counted events answer duplicate).",
                "Example: railgun send payments payments.csv --output replies.ndjson"})
public final class SendCommand extends ClientCommand {
    @Parameters(index = "0", paramLabel = "STREAM", description = "The stream's name.")
    String stream;

    @Parameters(index = "1", arity = "0..1", paramLabel = "FILE", description = "The events; - or none for standard"
            + " input.")
    String file = "-";

    @Option(names = "--format", paramLabel = "ndjson|csv", description = "The input format. Default: csv for a .csv"
            + " file, else ndjson.")
    String format;

    @Option(names = "--batch-size", paramLabel = "N", defaultValue = "100", description = "Events per request"
            + " (at most the node's --max-batch-events). Default: ${DEFAULT-VALUE}.")
    int batchSize;

    @Option(names = "--concurrency", paramLabel = "N", defaultValue = "1", description = "Batches in flight at once."
            + " Above 1 later batches may be counted before earlier ones finish (replies stay in input order)."
            + " Default: ${DEFAULT-VALUE}.")
    int concurrency;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the replies to FILE instead of"
            + " standard output (/dev/null to drop them).")
    String output;

    @Option(names = "--retries", paramLabel = "N", defaultValue = "5", description = "Times a batch is sent again"
            + " after a 503, 502, 504, 429 or no reply in time. Default: ${DEFAULT-VALUE}.")
    int retries;

    @Option(names = "--progress", negatable = true, description = "Draw a progress bar on stderr. Default: when"
            + " stderr is a terminal and the replies do not go to it.")
    Boolean progressBar;

    public SendCommand(ClientContext context) {
        super(context);
    }

    @Override
    protected int run(RailgunClient client, NodeTarget target) throws Exception {
        if (batchSize < 1 || concurrency < 1 || retries < 0) {
            throw CommandFailure.usage("--batch-size and --concurrency must be at least 1, --retries at least 0");
        }
        boolean stdin = file.equals("-");
        EventFormat eventFormat = format(stdin);
        StreamSpec spec = client.stream(stream);
        boolean showProgress = progressBar != null ? progressBar
                : context.stderrIsTerminal().getAsBoolean()
                && (output != null && !output.equals("-") || !context.stdoutIsTerminal().getAsBoolean());
        long total = showProgress && !stdin ? InputSize.events(Path.of(file), eventFormat) : -1;

        long startNs = System.nanoTime();
        var tally = new SendTally();
        ProgressBar progress = showProgress ? new ProgressBar(err(), total, System::nanoTime) : null;
        BatchSender.Failure failure;
        var finished = new AtomicBoolean();
        Thread interrupted = new Thread(() -> {
            if (!finished.get()) {
                if (progress != null) {
                    progress.finish();
                }
                err().println(name() + ": interrupted after " + tally.summary(System.nanoTime() - startNs)
                        + ". Send the input again to go on: events already counted answer duplicate and count once");
                err().flush();
            }
        }, "railgun-send-interrupted");
        Runtime.getRuntime().addShutdownHook(interrupted);
        try (EventReader reader = open(stdin, eventFormat, spec); Writer replies = replies()) {
            var sender = new BatchSender(client, stream, batchSize, concurrency, retries,
                    new ReplyWriter(replies, spec.fields().get(spec.eventId()) == FieldType.LONG), tally, progress);
            failure = sender.run(reader);
        } catch (InputException e) {
            throw CommandFailure.usage(where(e.line()) + ": " + e.getMessage());
        } catch (IOException e) {
            // the input or the replies' file, not the node (whose failures are RailgunExceptions)
            String reason = e instanceof CharacterCodingException ? "not UTF-8 text"
                    : e instanceof NoSuchFileException ? "no such file or directory" : String.valueOf(e.getMessage());
            String what = e instanceof NoSuchFileException missing && output != null
                    && Path.of(output).equals(Path.of(missing.getFile())) ? "cannot write the replies to " + output
                    : "cannot read " + (stdin ? "standard input" : file);
            throw new CommandFailure(tally.sent() == 0 ? ExitCode.USAGE : ExitCode.PARTIAL, what + ": " + reason
                    + (tally.sent() == 0 ? "" : " (after " + tally.summary(System.nanoTime() - startNs) + ")"));
        } finally {
            finished.set(true);
            removeHook(interrupted);
            if (progress != null) {
                progress.finish();
            }
        }
        long elapsedNs = System.nanoTime() - startNs;
        if (failure == null) {
            err().println(name() + ": sent " + tally.summary(elapsedNs));
            return ExitCode.OK;
        }
        return SendFailures.report(failure, tally, elapsedNs, target, name(), stdin ? "standard input" : file, err());
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // Ctrl-C came as the sending ended: the hook runs and finds it finished
        }
    }

    private EventFormat format(boolean stdin) {
        if (format == null) {
            return stdin ? EventFormat.NDJSON : EventFormat.forFile(file);
        }
        try {
            return EventFormat.valueOf(format.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw CommandFailure.usage("--format " + format + " is not a format: give ndjson or csv");
        }
    }

    private EventReader open(boolean stdin, EventFormat eventFormat, StreamSpec spec)
            throws IOException, InputException {
        BufferedReader in;
        try {
            in = stdin ? new BufferedReader(new InputStreamReader(context.stdin().get(), StandardCharsets.UTF_8))
                    : Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw CommandFailure.usage(file + " does not exist");
        }
        return eventFormat == EventFormat.CSV ? new CsvReader(in, spec.fields()) : new NdjsonReader(in);
    }

    private Writer replies() throws IOException {
        if (output == null || output.equals("-")) {
            // closing this must not close standard output: only flush
            return new BufferedWriter(new Writer() {
                @Override
                public void write(char[] buffer, int offset, int length) {
                    out().write(buffer, offset, length);
                }

                @Override
                public void flush() {
                    out().flush();
                }

                @Override
                public void close() {
                    flush();
                }
            });
        }
        return Files.newBufferedWriter(Path.of(output), StandardCharsets.UTF_8);
    }

    private String where(long line) {
        return "line " + line + " of " + (file.equals("-") ? "standard input" : file);
    }
}
