package io.railgun.node.cli.client.send;

import io.railgun.client.EventReply;
import io.railgun.client.RailgunClient;
import io.railgun.client.RailgunException;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sending loop of {@code send}: reads events in batches of {@code batchSize}, keeps up to
 * {@code concurrency} batches in flight ({@code POST .../events:batch}), and writes their replies in
 * input order. A batch answered 503, 502, 504 or 429, or not answered in time, is sent again, the
 * same events with the same ids (safe: an event already counted answers {@code duplicate} with the
 * current values), after the node's Retry-After or 1, 2, 4 ... s, up to {@code maxRetries} times.
 * The first other failure stops the reading; the batches already in flight are still awaited, and
 * their replies written. Runs on the calling thread; the client's threads only complete futures.
 */
final class BatchSender {
    private static final Pattern EVENT_INDEX = Pattern.compile("^events\\[(\\d+)]\\.?\\s*");
    private static final long MAX_BACKOFF_MS = 30_000;

    /** Why sending stopped: a bad row, or the node's answer (or its absence) for one batch. */
    record Failure(InputException input, RailgunException node, List<InputRow> batch) {
    }

    private record InFlight(List<InputRow> rows, CompletableFuture<Answer> answer) {
    }

    private record Answer(List<EventReply> replies, int attempts) {
    }

    private final RailgunClient client;
    private final String stream;
    private final int batchSize;
    private final int concurrency;
    private final int maxRetries;
    private final ReplyWriter replies;
    private final SendTally tally;
    private final ProgressBar progress;
    private volatile String note = "";

    /** @param progress the progress bar, or null for none */
    BatchSender(RailgunClient client, String stream, int batchSize, int concurrency, int maxRetries,
                ReplyWriter replies, SendTally tally, ProgressBar progress) {
        this.client = client;
        this.stream = stream;
        this.batchSize = batchSize;
        this.concurrency = concurrency;
        this.maxRetries = maxRetries;
        this.replies = replies;
        this.tally = tally;
        this.progress = progress;
    }

    /**
     * Sends every event of {@code reader}, or up to the first failure.
     *
     * @return null when all were sent, else the first failure
     */
    Failure run(EventReader reader) throws IOException, InterruptedException {
        if (progress != null) {
            progress.update(0, "");
        }
        Deque<InFlight> pending = new ArrayDeque<>();
        Failure failure = null;
        boolean more = true;
        while (more && failure == null) {
            List<InputRow> rows = new ArrayList<>(batchSize);
            InputException bad = null;
            try {
                InputRow row;
                while (rows.size() < batchSize && (row = reader.next()) != null) {
                    rows.add(row);
                }
            } catch (InputException e) {
                bad = e;
            }
            more = rows.size() == batchSize && bad == null;
            while (pending.size() >= concurrency && failure == null) {
                failure = complete(pending.poll());
            }
            if (failure != null) {
                break;
            }
            if (!rows.isEmpty()) {
                // the rows before a bad one are sent: everything before its line is then counted
                pending.add(new InFlight(rows, send(events(rows), 1, rows.getFirst().line())));
            }
            if (bad != null) {
                failure = new Failure(bad, null, List.of());
            }
            while (!pending.isEmpty() && pending.peek().answer().isDone() && failure == null) {
                failure = complete(pending.poll());
            }
        }
        while (!pending.isEmpty()) {
            Failure later = complete(pending.poll());
            if (failure == null) {
                failure = later;
            }
        }
        replies.flush();
        return failure;
    }

    /** Waits for the oldest batch, writes its replies; its failure, or null. */
    private Failure complete(InFlight batch) throws IOException, InterruptedException {
        Answer answer;
        try {
            answer = await(batch.answer());
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof CompletionException c && c.getCause() != null ? c.getCause()
                    : e.getCause();
            if (cause instanceof RailgunException node) {
                return new Failure(null, node, batch.rows());
            }
            throw new IllegalStateException("sending a batch failed", cause);
        }
        for (EventReply reply : answer.replies()) {
            replies.write(reply);
        }
        tally.add(answer.replies(), answer.attempts() > 1);
        if (progress != null) {
            progress.update(tally.sent(), note);
        }
        return null;
    }

    private Answer await(CompletableFuture<Answer> answer) throws ExecutionException, InterruptedException {
        while (true) {
            try {
                return answer.get(200, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (progress != null) {
                    progress.update(tally.sent(), note);
                }
            }
        }
    }

    private CompletableFuture<Answer> send(List<Map<String, Object>> events, int attempt, long firstLine) {
        return client.sendBatchAsync(stream, events)
                .thenApply(answer -> {
                    note = "";
                    return new Answer(answer, attempt);
                })
                .exceptionallyCompose(t -> {
                    Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
                    if (!(cause instanceof RailgunException e) || !retriable(e) || attempt > maxRetries) {
                        return CompletableFuture.failedFuture(cause);
                    }
                    long delayMs = e.retryAfterSeconds() > 0 ? e.retryAfterSeconds() * 1000L
                            : Math.min(MAX_BACKOFF_MS, 1000L << Math.min(attempt - 1, 5));
                    note = (e.status() == 0 ? "no reply in time" : "node busy (" + e.status() + ")")
                            + ": sending line " + firstLine + "'s batch again in " + Math.round(delayMs / 1000.0) + " s";
                    var later = CompletableFuture.delayedExecutor(delayMs, TimeUnit.MILLISECONDS);
                    return CompletableFuture.supplyAsync(() -> null, later)
                            .thenCompose(ignored -> send(events, attempt + 1, firstLine));
                });
    }

    /** Worth sending again: the node could not answer in time, or was briefly unavailable. */
    static boolean retriable(RailgunException e) {
        return switch (e.status()) {
            case 0 -> RailgunException.TIMEOUT.equals(e.code());
            case 429, 502, 503, 504 -> true;
            default -> false;
        };
    }

    private static List<Map<String, Object>> events(List<InputRow> rows) {
        List<Map<String, Object>> events = new ArrayList<>(rows.size());
        rows.forEach(row -> events.add(row.event()));
        return events;
    }

    /**
     * The row a batch's error is about, from the node's {@code events[i]} prefix, with the message
     * without it; else null.
     */
    static InputRow offendingRow(RailgunException e, List<InputRow> batch) {
        Matcher m = EVENT_INDEX.matcher(String.valueOf(e.getMessage()));
        if (m.find()) {
            int index = Integer.parseInt(m.group(1));
            if (index < batch.size()) {
                return batch.get(index);
            }
        }
        return null;
    }

    /** The node's message without its {@code events[i].} prefix. */
    static String withoutIndex(String message) {
        return EVENT_INDEX.matcher(String.valueOf(message)).replaceFirst("");
    }
}
