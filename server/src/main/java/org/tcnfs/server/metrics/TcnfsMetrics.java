package org.tcnfs.server.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * The meters of one server: a Micrometer registry that renders the Prometheus text format, with the
 * JVM and process meters bound, and a small API through which the server's layers register their own.
 *
 * <p>Every tcnfs meter is named {@code tcnfs.<area>.<what>} (dots; the Prometheus registry turns them into
 * {@code tcnfs_<area>_<what>} and adds {@code _total}, {@code _seconds} or the base unit). The protocol
 * layer's meters are registered by {@link MetricsHook} and the server's gauges by
 * {@link org.tcnfs.server.TcnfsServer}; the transaction layer is meant to register its counters here too
 * (for example {@code tcnfs.txn.committed}, {@code tcnfs.txn.rolled.back}, {@code tcnfs.lock.wait} as a
 * {@link #timer}, {@code tcnfs.backup.bytes} with a {@code method} tag), or to be handed {@link #registry()}.
 *
 * <p>Thread-safe: meters may be registered and updated from any thread; registering the same name and
 * tags twice returns the meter registered first. {@link #close()} releases the JVM listeners and is
 * harmless twice.
 */
public final class TcnfsMetrics implements AutoCloseable {
    /** The prefix of every tcnfs meter name. */
    public static final String PREFIX = "tcnfs.";

    /** Upper bounds of the latency histogram buckets, from 50 microseconds to 30 seconds. */
    static final Duration[] LATENCY_BUCKETS = {
        Duration.ofNanos(50_000), Duration.ofNanos(100_000), Duration.ofNanos(250_000), Duration.ofNanos(500_000),
        Duration.ofMillis(1), Duration.ofNanos(2_500_000), Duration.ofMillis(5), Duration.ofMillis(10),
        Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
        Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5),
        Duration.ofSeconds(10), Duration.ofSeconds(30),
    };

    private final PrometheusMeterRegistry registry;
    private final JvmGcMetrics gc;
    private final List<Supplier<Number>> counted = new CopyOnWriteArrayList<>();

    private TcnfsMetrics(PrometheusMeterRegistry registry, JvmGcMetrics gc) {
        this.registry = registry;
        this.gc = gc;
    }

    /** A registry with the JVM and process meters (memory, GC, threads, classes, CPU, uptime, file descriptors). */
    public static TcnfsMetrics create() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(registry);
        return new TcnfsMetrics(registry, gc);
    }

    /** The Micrometer registry itself, for meters this API does not cover. */
    public MeterRegistry registry() {
        return registry;
    }

    /** Every meter in the Prometheus text exposition format (version 0.0.4). */
    public String scrape() {
        return registry.scrape();
    }

    /**
     * A counter, such as {@code tcnfs.compounds} (exposed as {@code tcnfs_compounds_total}).
     *
     * @param tags tag names and values, alternating
     */
    public Counter counter(String name, String description, String... tags) {
        return Counter.builder(checked(name)).description(description).tags(Tags.of(tags)).register(registry);
    }

    /**
     * A counter of bytes ({@code tcnfs_<name>_bytes_total}).
     *
     * @param tags tag names and values, alternating
     */
    public Counter byteCounter(String name, String description, String... tags) {
        return Counter.builder(checked(name)).description(description).baseUnit("bytes").tags(Tags.of(tags))
                .register(registry);
    }

    /**
     * A latency timer with a histogram of {@link #LATENCY_BUCKETS} ({@code tcnfs_<name>_seconds_bucket},
     * {@code _count}, {@code _sum}, {@code _max}).
     *
     * @param tags tag names and values, alternating
     */
    public Timer timer(String name, String description, String... tags) {
        return Timer.builder(checked(name)).description(description).tags(Tags.of(tags))
                .serviceLevelObjectives(LATENCY_BUCKETS).register(registry);
    }

    /**
     * A distribution of counts or sizes with a histogram of the given bucket upper bounds.
     *
     * @param baseUnit unit appended to the exposed name, or {@code null} for plain counts
     * @param tags tag names and values, alternating
     */
    public DistributionSummary summary(String name, String description, String baseUnit, double[] buckets,
            String... tags) {
        return DistributionSummary.builder(checked(name)).description(description).baseUnit(baseUnit)
                .serviceLevelObjectives(buckets.clone()).tags(Tags.of(tags)).register(registry);
    }

    /**
     * A gauge read when scraped; {@code value} must be cheap, thread-safe and never throw (answer NaN when
     * the measure cannot be taken). The registry holds {@code value} strongly.
     *
     * @param baseUnit unit appended to the exposed name, or {@code null}
     * @param tags tag names and values, alternating
     */
    public Gauge gauge(String name, String description, String baseUnit, Supplier<Number> value, String... tags) {
        return Gauge.builder(checked(name), Objects.requireNonNull(value, "value")).description(description)
                .baseUnit(baseUnit).tags(Tags.of(tags)).strongReference(true).register(registry);
    }

    /**
     * A counter whose count is read when scraped from a monotonic {@code value} kept elsewhere
     * ({@code tcnfs_<name>_total}); {@code value} must be cheap, thread-safe and never throw.
     *
     * @param tags tag names and values, alternating
     */
    public FunctionCounter functionCounter(String name, String description, Supplier<Number> value,
            String... tags) {
        Objects.requireNonNull(value, "value");
        // a function counter holds its object weakly: keep it here, or the counter would read NaN after a GC
        counted.add(value);
        return FunctionCounter.builder(checked(name), value, v -> v.get().doubleValue()).description(description)
                .tags(Tags.of(tags)).register(registry);
    }

    private static String checked(String name) {
        Objects.requireNonNull(name, "name");
        if (!name.startsWith(PREFIX) || name.length() == PREFIX.length()) {
            throw new IllegalArgumentException("meter name must start with '" + PREFIX + "': " + name);
        }
        return name;
    }

    /** Stops the GC listener and closes the registry. */
    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}
