package io.railgun.node.ops;

import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * The node's Prometheus metrics (SPEC §3.5), served by {@code GET /metrics} in the text format.
 *
 * <p>Owned here: {@code railgun_http_requests_total{route,status}}, {@code railgun_events_total{stream}}
 * (events handed to the front-end), {@code railgun_replies_total{stream}} (replies sent back) and the
 * latency histogram {@code railgun_request_seconds{route}} (buckets from 100 µs to 10 s). Other layers
 * add their own values by callback ({@link #gauge}, {@link #counter}): reservoir bytes on disk and in
 * cache, state size, consumer lag, rebalances. Callbacks run on the thread that scrapes, so they must
 * be thread-safe and cheap; one that throws is logged and skipped, the scrape still succeeds.
 *
 * <p>The JVM's own figures come from the Prometheus client's JVM instrumentation, registered on the
 * same registry: {@code jvm_memory_used_bytes{area,...}}, {@code jvm_memory_pool_*},
 * {@code jvm_gc_collection_seconds{gc}} (GC pauses), {@code jvm_threads_*}, {@code jvm_classes_*},
 * {@code jvm_buffer_pool_*}, {@code process_cpu_seconds_total}, {@code process_resident_memory_bytes}
 * and the others it exports.
 *
 * <p>Thread-safe: every method may be called from any thread.
 */
public final class NodeMetrics {
    private static final System.Logger LOG = System.getLogger(NodeMetrics.class.getName());

    /** Upper bounds of the latency buckets in seconds: 1-2.5-5 steps from 100 µs to 10 s. */
    static final double[] LATENCY_BUCKETS_SECONDS = {
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
    };

    private static final String[] STATUS_LABELS = new String[600];

    static {
        for (int i = 0; i < STATUS_LABELS.length; i++) {
            STATUS_LABELS[i] = Integer.toString(i);
        }
    }

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter textWriter = PrometheusTextFormatWriter.create();
    private final Counter httpRequests;
    private final Counter eventsIn;
    private final Counter repliesOut;
    private final Histogram requestSeconds;
    private final Map<String, DistributionDataPoint> latencyByRoute = new ConcurrentHashMap<>();

    public NodeMetrics() {
        httpRequests = Counter.builder()
                .name("railgun_http_requests_total")
                .help("HTTP requests answered, by route and status code")
                .labelNames("route", "status")
                .register(registry);
        eventsIn = Counter.builder()
                .name("railgun_events_total")
                .help("Events received and handed to the front-end, by stream")
                .labelNames("stream")
                .register(registry);
        repliesOut = Counter.builder()
                .name("railgun_replies_total")
                .help("Event replies sent back to clients, by stream")
                .labelNames("stream")
                .register(registry);
        requestSeconds = Histogram.builder()
                .name("railgun_request_seconds")
                .help("HTTP request latency in seconds, from the request's arrival to its response written, by route")
                .labelNames("route")
                .classicOnly()
                .classicUpperBounds(LATENCY_BUCKETS_SECONDS)
                .register(registry);
        JvmMetrics.builder().register(registry);
    }

    /** The registry, for layers that prefer to register their own collectors. */
    public PrometheusRegistry registry() {
        return registry;
    }

    /** Records one answered HTTP request. {@code route} must come from a small fixed set (a route template). */
    public void recordRequest(String route, int status, long durationNs) {
        String statusLabel = status >= 0 && status < STATUS_LABELS.length ? STATUS_LABELS[status] : Integer.toString(status);
        httpRequests.labelValues(route, statusLabel).inc();
        latencyByRoute.computeIfAbsent(route, r -> requestSeconds.labelValues(r)).observe(durationNs / 1e9);
    }

    /** Counts {@code count} events of {@code stream} handed to the front-end. */
    public void eventsIn(String stream, long count) {
        eventsIn.labelValues(stream).inc(count);
    }

    /** Counts {@code count} replies for events of {@code stream} sent back to a client. */
    public void repliesOut(String stream, long count) {
        repliesOut.labelValues(stream).inc(count);
    }

    /**
     * Adds a gauge whose values are read at each scrape, one per label-value combination.
     *
     * @param name       metric name, e.g. {@code railgun_reservoir_disk_bytes}
     * @param labelNames label names, in the order of each key list of {@code values}
     * @param values     called at each scrape: label values (same length as {@code labelNames}) to value
     * @return a handle whose {@code close()} removes the gauge
     */
    public Registration gauge(String name, String help, List<String> labelNames,
            Supplier<? extends Map<List<String>, ? extends Number>> values) {
        GaugeWithCallback gauge = GaugeWithCallback.builder()
                .name(name)
                .help(help)
                .labelNames(labelNames.toArray(String[]::new))
                .callback(cb -> emit(name, values, cb::call))
                .build();
        return register(gauge);
    }

    /** Adds a gauge without labels whose value is read at each scrape. */
    public Registration gauge(String name, String help, DoubleSupplier value) {
        GaugeWithCallback gauge = GaugeWithCallback.builder()
                .name(name)
                .help(help)
                .callback(cb -> {
                    try {
                        cb.call(value.getAsDouble());
                    } catch (RuntimeException e) {
                        LOG.log(System.Logger.Level.WARNING, "metric callback " + name + " failed; skipped", e);
                    }
                })
                .build();
        return register(gauge);
    }

    /**
     * Adds a counter (a value that only grows, e.g. rebalances) read at each scrape. Name it without
     * the {@code _total} suffix or with it: the exposition always ends it in {@code _total}.
     */
    public Registration counter(String name, String help, List<String> labelNames,
            Supplier<? extends Map<List<String>, ? extends Number>> values) {
        CounterWithCallback counter = CounterWithCallback.builder()
                .name(name)
                .help(help)
                .labelNames(labelNames.toArray(String[]::new))
                .callback(cb -> emit(name, values, cb::call))
                .build();
        return register(counter);
    }

    /** Writes every metric in the Prometheus text format (version 0.0.4). */
    public void writeText(OutputStream out) throws IOException {
        textWriter.write(out, registry.scrape());
    }

    /** The Content-Type of {@link #writeText}'s output. */
    public String textContentType() {
        return textWriter.getContentType();
    }

    private Registration register(Collector collector) {
        registry.register(collector);
        return () -> registry.unregister(collector);
    }

    private static void emit(String name, Supplier<? extends Map<List<String>, ? extends Number>> values,
            BiConsumer<Double, String[]> sink) {
        try {
            Map<List<String>, ? extends Number> snapshot = values.get();
            for (Map.Entry<List<String>, ? extends Number> e : snapshot.entrySet()) {
                sink.accept(e.getValue().doubleValue(), e.getKey().toArray(String[]::new));
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "metric callback " + name + " failed; skipped", e);
        }
    }

    /** A metric added by callback; {@link #close()} removes it from the registry. Idempotent. */
    @FunctionalInterface
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }
}
