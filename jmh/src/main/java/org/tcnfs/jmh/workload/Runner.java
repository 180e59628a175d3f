package org.tcnfs.jmh.workload;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import java.util.function.LongConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Runs one measured run: {@code clients} threads, each with its own session, prepare untimed, start together,
 * and the run's time is from the common start to the end of the last client.
 */
final class Runner {
    private final Progress progress;
    private final RunObserver observer;

    Runner(Progress progress) {
        this(progress, RunObserver.NONE);
    }

    Runner(Progress progress, RunObserver observer) {
        this.progress = progress;
        this.observer = observer;
    }

    /**
     * Told when a measured run's clients are ready (right before the common start; untimed) and when the run
     * has ended (after every client closed its session).
     */
    interface RunObserver {
        /** Observes nothing. */
        RunObserver NONE = new RunObserver() {
            @Override
            public void begin(String workload, String parameter, String target) {
            }

            @Override
            public void end(Result result) {
            }
        };

        /** The run is about to start. */
        void begin(String workload, String parameter, String target);

        /** The run ended with {@code result} (also when it failed). */
        void end(Result result);
    }

    /** Whether runs draw a progress bar on standard error. */
    enum Progress {
        BAR, NONE
    }

    /** What one client does in a run. */
    interface ClientWork {
        /** Untimed preparation (before the common start). */
        default void prepare(FsSession session) throws IOException {
        }

        /** The timed work; calls {@code step} with items as they are done. */
        Done run(FsSession session, LongConsumer step) throws IOException;
    }

    /** What a client did: items and data bytes. */
    record Done(long ops, long bytes) {
    }

    Result run(String workload, String parameter, Target target, int clients, long expectedOps,
            IntFunction<ClientWork> work) {
        CountDownLatch ready = new CountDownLatch(clients);
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch finished = new CountDownLatch(clients);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong ops = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        AtomicLong lastEnd = new AtomicLong();
        String task = String.format("%-10s %-12s %s", workload, target.name(), parameter);
        try (ProgressBar bar = progress == Progress.BAR ? new ProgressBarBuilder().setTaskName(task).setInitialMax(expectedOps)
                .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(250).continuousUpdate()
                .setMaxRenderedLength(120).build() : null) {
            LongConsumer step = bar == null ? n -> { } : bar::stepBy;
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                int index = i;
                Thread t = new Thread(() -> client(target, work.apply(index), ready, go, finished, failure, ops,
                        bytes, lastEnd, step), "client-" + i);
                threads.add(t);
                t.start();
            }
            ready.await();
            observer.begin(workload, parameter, target.name());
            long start = System.nanoTime();
            go.countDown();
            finished.await();
            for (Thread t : threads) {
                t.join();
            }
            Result result;
            if (failure.get() != null) {
                Throwable f = failure.get();
                result = Result.failed(workload, parameter, target.name(), f.toString());
            } else {
                double seconds = (lastEnd.get() - start) / 1e9;
                result = new Result(workload, parameter, target.name(), ops.get(), bytes.get(), seconds, "");
            }
            observer.end(result);
            return result;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Result.failed(workload, parameter, target.name(), "interrupted");
        }
    }

    private static void client(Target target, ClientWork work, CountDownLatch ready, CountDownLatch go,
            CountDownLatch finished, AtomicReference<Throwable> failure, AtomicLong ops, AtomicLong bytes,
            AtomicLong lastEnd, LongConsumer step) {
        try (FsSession session = target.open()) {
            try {
                work.prepare(session);
            } finally {
                ready.countDown();
            }
            go.await();
            try {
                if (failure.get() == null) {
                    Done done = work.run(session, step);
                    ops.addAndGet(done.ops());
                    bytes.addAndGet(done.bytes());
                }
            } finally {
                lastEnd.accumulateAndGet(System.nanoTime(), Math::max);
                finished.countDown();
            }
        } catch (IOException | RuntimeException e) {
            failure.compareAndSet(null, e);
            release(ready, finished);
        } catch (InterruptedException e) {
            failure.compareAndSet(null, e);
            Thread.currentThread().interrupt();
        }
    }

    /** A client that failed before its latches were counted still lets the run end (counts are floored at 0). */
    private static void release(CountDownLatch ready, CountDownLatch finished) {
        ready.countDown();
        finished.countDown();
    }
}
