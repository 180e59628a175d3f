package org.tcnfs.client.cli;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.tcnfs.client.vector.ProgressListener;

/**
 * A progress bar on standard error for long work, fed by the client's {@link ProgressListener} (items) or by
 * {@link #bytesDone} (bytes, with rate and time left); does nothing when bars are off. {@link #start} and
 * {@link #startBytes} begin a new task, {@link #close} ends the current one. Thread-safe.
 */
final class Progress implements ProgressListener, AutoCloseable {
    private final boolean enabled;
    private ProgressBar bar;
    /** Whether the current bar counts bytes (then item counts from the client are ignored). */
    private boolean bytes;

    Progress(boolean enabled) {
        this.enabled = enabled;
    }

    /** Begins a task of {@code items} items (closing the previous bar); small tasks get no bar. */
    synchronized void start(String task, long items) {
        close();
        if (enabled && items > 1) {
            bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(items).setStyle(ProgressBarStyle.ASCII)
                    .setConsumer(new ConsoleProgressBarConsumer(System.err)).setUpdateIntervalMillis(200).build();
        }
    }

    /** Begins a task that moves {@code total} bytes (closing the previous bar): MiB done, MiB/s and time left. */
    synchronized void startBytes(String task, long total) {
        close();
        if (enabled && total > 0) {
            bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(total).setStyle(ProgressBarStyle.ASCII)
                    .setUnit("MiB", 1024 * 1024).showSpeed(new java.text.DecimalFormat("0.0"))
                    .setConsumer(new ConsoleProgressBarConsumer(System.err)).setUpdateIntervalMillis(200).build();
            bytes = true;
        }
    }

    /** Counts {@code n} more bytes done (for a {@link #startBytes} task; may come from any thread). */
    synchronized void bytesDone(long n) {
        if (bar != null && bytes) {
            bar.stepBy(n);
        }
    }

    @Override
    public synchronized void itemsDone(int items) {
        if (bar != null && !bytes) {
            bar.stepBy(items);
        }
    }

    @Override
    public synchronized void close() {
        if (bar != null) {
            bar.close();
            bar = null;
        }
        bytes = false;
    }
}
