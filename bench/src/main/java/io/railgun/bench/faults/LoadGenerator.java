package io.railgun.bench.faults;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The suite's own open-loop load generator: event {@code i} is due at {@code t0 + i / rate} whatever
 * happened to the ones before it (a stalled node shows as latency, not as a slower schedule), sent
 * as one JSON event ({@code POST /v1/streams/{stream}/events}) to the nodes in rotation, round-robin,
 * through the JDK's HTTP client (not Railgun's client). Every event has a unique id; after a 503 or
 * a connection error the same event (same id and fields) is sent again to the next node, after the
 * reply's {@code Retry-After} (or 200 ms), up to {@code maxAttempts} requests. Every request and its
 * outcome is recorded ({@link Attempt}). At most {@code maxInFlight} requests are outstanding (each
 * holds a connection, and a node refuses more than 1,000 from one address): beyond that the sender
 * waits and sends late, and the request's latency still counts from when it was due.
 *
 * <p>Threads: the sender thread ({@link #start}) and the HTTP client's completion threads record
 * outcomes; the driver changes the rotation ({@link #addTarget}, {@link #removeTarget}) like a load
 * balancer taking a node in or out, and reads the records after {@link #stopAndDrain}.
 */
final class LoadGenerator {
    /** The HTTP client's timeout of a request: well beyond the node's own (10 s by default, then 503). */
    static final int REQUEST_TIMEOUT_S = 20;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
            .executor(Executors.newVirtualThreadPerTaskExecutor()).build();
    private final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "faults-retry");
        t.setDaemon(true);
        return t;
    });
    private final String path;
    private final double rate;
    private final int cards;
    private final int maxAttempts;
    private final SplittableRandom random;
    private final List<Map.Entry<String, URI>> targets = new CopyOnWriteArrayList<>();
    private final AtomicInteger nextTarget = new AtomicInteger();
    private final List<SentEvent> events = new ArrayList<>();
    private final ConcurrentLinkedQueue<Attempt> attempts = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pending = new AtomicInteger();
    private final Semaphore inFlight;
    private final AtomicLong ok = new AtomicLong();
    private final AtomicLong unavailable = new AtomicLong();
    private final AtomicLong otherStatus = new AtomicLong();
    private final AtomicLong connectionErrors = new AtomicLong();
    private volatile boolean stopping;
    private volatile int sent;
    private Thread sender;

    LoadGenerator(String stream, double rate, int cards, int maxAttempts, int maxInFlight, long seed) {
        this.inFlight = new Semaphore(maxInFlight);
        this.path = "/v1/streams/" + stream + "/events";
        this.rate = rate;
        this.cards = cards;
        this.maxAttempts = maxAttempts;
        this.random = new SplittableRandom(seed);
    }

    void addTarget(String node, URI uri) {
        targets.add(Map.entry(node, uri.resolve(path)));
    }

    void removeTarget(String node) {
        targets.removeIf(t -> t.getKey().equals(node));
    }

    /** Starts sending on a thread of its own. */
    void start() {
        sender = new Thread(this::run, "faults-load");
        sender.start();
    }

    private void run() {
        double periodNs = 1e9 / rate;
        long t0 = System.nanoTime();
        long wallT0Ms = System.currentTimeMillis();
        for (int i = 0; !stopping; i++) {
            long due = t0 + (long) (i * periodNs);
            for (long now = System.nanoTime(); now < due && !stopping; now = System.nanoTime()) {
                LockSupport.parkNanos(due - now);
            }
            if (stopping) {
                break;
            }
            SentEvent e = new SentEvent("f" + i, "c" + random.nextInt(cards), wallT0Ms + (due - t0) / 1_000_000,
                    1 + random.nextInt(4000));
            synchronized (events) {
                events.add(e);
            }
            sent = i + 1;
            inFlight.acquireUninterruptibly();
            send(i, e, 1, due);
        }
    }

    private void send(int index, SentEvent e, int attempt, long due) {
        Map.Entry<String, URI> target = targets.get(Math.floorMod(nextTarget.getAndIncrement(), targets.size()));
        HttpRequest request = HttpRequest.newBuilder(target.getValue()).timeout(Duration.ofSeconds(REQUEST_TIMEOUT_S))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(e.json())).build();
        pending.incrementAndGet();
        long sentNs = System.nanoTime();
        http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((response, failure) -> {
            long done = System.nanoTime();
            inFlight.release();
            int status = response == null ? Attempt.CONNECTION_ERROR : response.statusCode();
            String body = response == null ? String.valueOf(failure instanceof java.util.concurrent.CompletionException c
                    && c.getCause() != null ? c.getCause() : failure) : response.body();
            attempts.add(new Attempt(index, attempt, target.getKey(), due, sentNs, done, status, body));
            (status == 200 ? ok : status == 503 ? unavailable : status == 0 ? connectionErrors : otherStatus)
                    .incrementAndGet();
            if ((status == 503 || status == Attempt.CONNECTION_ERROR) && attempt < maxAttempts && !stopping) {
                long delayMs = status == 503 ? retryAfterMs(response) : 200;
                pending.incrementAndGet();
                retries.schedule(() -> {
                    try {
                        inFlight.acquireUninterruptibly();
                        send(index, e, attempt + 1, System.nanoTime());
                    } finally {
                        pending.decrementAndGet();
                    }
                }, delayMs, TimeUnit.MILLISECONDS);
            }
            pending.decrementAndGet();
        });
    }

    private static long retryAfterMs(HttpResponse<?> response) {
        try {
            return Math.min(5_000, 1000 * Long.parseLong(response.headers().firstValue("Retry-After").orElse("1")));
        } catch (NumberFormatException ex) {
            return 1000;
        }
    }

    /** One line of progress: requests so far by outcome. */
    String progress() {
        return String.format("sent %d events, replies 200: %d, 503: %d, other: %d, connection errors: %d, in flight: %d",
                sent, ok.get(), unavailable.get(), otherStatus.get(), connectionErrors.get(), pending.get());
    }

    /**
     * Stops the schedule (no new events; retries already scheduled are still sent) and waits up to
     * {@code timeoutS} for every request to be answered. Returns how many were still outstanding.
     */
    int stopAndDrain(int timeoutS) throws InterruptedException {
        stopping = true;
        sender.join();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
        while (pending.get() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        retries.shutdownNow();
        return pending.get();
    }

    List<SentEvent> events() {
        synchronized (events) {
            return List.copyOf(events);
        }
    }

    List<Attempt> attempts() {
        return List.copyOf(attempts);
    }

    void close() throws IOException {
        http.close();
        retries.shutdownNow();
    }
}
