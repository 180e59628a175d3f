package org.tcnfs.jmh.workload;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples a server's heap from its Prometheus endpoint (Micrometer's {@code jvm_memory_used_bytes{area="heap"}},
 * summed over the memory pools, and {@code jvm_buffer_memory_used_bytes{id="direct"}}) every {@code period}
 * while a measured run of one of {@code workloads} against one of {@code targets} (the targets that server
 * serves) is under way, and keeps the peak of each such run. A sample is also taken when the run starts and
 * when it ends, so even a short run has two.
 *
 * <p>Threading: one sampling thread of its own (a daemon), started by the first observed run and stopped by
 * {@link #close()}; the observer methods come from the driver's thread. A failed scrape is logged and skipped.
 */
final class HeapSampler implements Runner.RunObserver, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HeapSampler.class);
    /** Means "every workload" in {@code workloads}. */
    static final String ALL = "all";

    /**
     * The peak of one run.
     *
     * @param workload the run's workload
     * @param parameter its parameter setting
     * @param target its target
     * @param heapBytes the most heap in use in any sample (all pools; includes garbage not collected yet)
     * @param directBytes the most direct buffer memory in use in any sample (NaN-free: -1 when not exposed)
     * @param heapMaxBytes the heap's maximum as the server reports it (the -Xmx; -1 when not exposed)
     * @param samples how many samples the peak is taken over
     */
    record Peak(String workload, String parameter, String target, long heapBytes, long directBytes,
            long heapMaxBytes, int samples) {
    }

    /** One reading: heap in use, direct buffers in use, heap maximum (bytes, -1 when not exposed). */
    record Sample(long heap, long direct, long heapMax) {
    }

    private final ServerMetrics metrics;
    private final Set<String> targets;
    private final Set<String> workloads;
    private final Duration period;
    private final List<Peak> peaks = new ArrayList<>();
    private Thread thread;
    private volatile boolean running;
    /** The open window: its run, peaks so far and sample count; guarded by {@code this}. */
    private String[] window;
    private long heapPeak;
    private long directPeak;
    private long heapMax = -1;
    private int samples;
    private long wholeRunPeak = -1;
    private int wholeRunSamples;

    HeapSampler(ServerMetrics metrics, Set<String> targets, Set<String> workloads, Duration period) {
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("sample period must be positive");
        }
        this.metrics = metrics;
        this.targets = Set.copyOf(targets);
        this.workloads = Set.copyOf(workloads);
        this.period = period;
    }

    /** Whether runs of {@code workload} against {@code target} are sampled. */
    boolean samples(String workload, String target) {
        return targets.contains(target) && (workloads.contains(ALL) || workloads.contains(workload));
    }

    @Override
    public void begin(String workload, String parameter, String target) {
        if (!samples(workload, target)) {
            return;
        }
        synchronized (this) {
            window = new String[] {workload, parameter, target};
            heapPeak = -1;
            directPeak = -1;
            samples = 0;
            if (thread == null) {
                running = true;
                thread = new Thread(this::loop, "heap-sampler");
                thread.setDaemon(true);
                thread.start();
            }
        }
        sampleOnce();
    }

    @Override
    public void end(Result result) {
        if (!samples(result.workload(), result.target())) {
            return;
        }
        sampleOnce();
        synchronized (this) {
            if (window != null && samples > 0) {
                peaks.add(new Peak(window[0], window[1], window[2], heapPeak, directPeak, heapMax, samples));
            }
            window = null;
        }
    }

    /** The peaks of the sampled runs so far, in run order. */
    synchronized List<Peak> peaks() {
        return List.copyOf(peaks);
    }

    /** The most heap in use in any sample of any run so far, -1 before the first. */
    synchronized long wholeRunPeak() {
        return wholeRunPeak;
    }

    /** Samples taken so far in all runs. */
    synchronized int wholeRunSamples() {
        return wholeRunSamples;
    }

    /** The heap's maximum as the server last reported it, -1 if unknown. */
    synchronized long heapMax() {
        return heapMax;
    }

    /** The endpoint sampled. */
    ServerMetrics metrics() {
        return metrics;
    }

    private void loop() {
        while (running) {
            boolean open;
            synchronized (this) {
                open = window != null;
            }
            if (open) {
                sampleOnce();
            }
            try {
                Thread.sleep(period.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void sampleOnce() {
        Sample s;
        try {
            s = read(metrics.scrape());
        } catch (IOException e) {
            LOG.warn("heap sample from {} failed: {}", metrics, e.toString());
            return;
        }
        if (s.heap() < 0) {
            LOG.warn("{} has no jvm_memory_used_bytes{{area=\"heap\"}}", metrics);
            return;
        }
        synchronized (this) {
            if (window == null) {
                return;
            }
            heapPeak = Math.max(heapPeak, s.heap());
            directPeak = Math.max(directPeak, s.direct());
            heapMax = s.heapMax() > 0 ? s.heapMax() : heapMax;
            samples++;
            wholeRunPeak = Math.max(wholeRunPeak, s.heap());
            wholeRunSamples++;
        }
    }

    /** The heap in use, direct buffers in use and heap maximum from an endpoint's text (-1 for what is missing). */
    static Sample read(String text) {
        return new Sample(bytes(ServerMetrics.sum(text, "jvm_memory_used_bytes", "area", "heap")),
                bytes(ServerMetrics.sum(text, "jvm_buffer_memory_used_bytes", "id", "direct")),
                bytes(ServerMetrics.sum(text, "jvm_memory_max_bytes", "area", "heap")));
    }

    private static long bytes(double v) {
        return Double.isNaN(v) ? -1 : (long) v;
    }

    /** Stops the sampling thread. */
    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            running = false;
            t = thread;
        }
        if (t != null) {
            t.interrupt();
            try {
                t.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
