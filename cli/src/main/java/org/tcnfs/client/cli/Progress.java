package org.tcnfs.client.cli;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.tcnfs.client.vector.ProgressListener;

/**
 * A progress bar on standard error for long work, fed by the client's {@link ProgressListener}; does nothing
 * when bars are off. {@link #start} begins a new task, {@link #close} ends the current one.
 */
final class Progress implements ProgressListener, AutoCloseable {
    private final boolean enabled;
    private ProgressBar bar;

    Progress(boolean enabled) {
        this.enabled = enabled;
    }

    /** Begins a task of {@code items} items (closing the previous bar); small tasks get no bar. */
    void start(String task, long items) {
        close();
        if (enabled && items > 1) {
            bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(items).setStyle(ProgressBarStyle.ASCII)
                    .setConsumer(new ConsoleProgressBarConsumer(System.err)).setUpdateIntervalMillis(200).build();
        }
    }

    @Override
    public void itemsDone(int items) {
        if (bar != null) {
            bar.stepBy(items);
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
            bar = null;
        }
    }
}
