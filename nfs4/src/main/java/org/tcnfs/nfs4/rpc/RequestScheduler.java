package org.tcnfs.nfs4.rpc;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs requests on worker threads. {@code threads} workers and as many queue slots; when those are full the
 * request is parked with the connection it came from, which is not read until a worker takes the request, so
 * clients that send faster than the server works are held back by TCP. NULL calls and short compounds that
 * wait for no lock and flush nothing do not come here while the workers are idle: the network thread that read
 * them runs them ({@link RpcCallFilter}, {@link InlineCompounds}).
 */
final class RequestScheduler {
    private static final Logger LOG = LoggerFactory.getLogger(RequestScheduler.class);

    /** A request that found the workers busy, and how to read its connection again. */
    private record Parked(Runnable request, Runnable resumeReading) {
    }

    /**
     * A worker thread, which holds what it calls to stop counting its request as with the workers
     * ({@link #finishing}): a field of the thread, not a thread-local set and removed per request.
     */
    private static final class Worker extends Thread {
        /** Used by this thread only; null between requests. */
        private Runnable finished;

        Worker(Runnable r, String name) {
            super(r, name);
            setDaemon(true);
        }
    }

    private final ThreadPoolExecutor workers;
    private final ConcurrentLinkedDeque<Parked> parked = new ConcurrentLinkedDeque<>();
    /** Requests handed to workers (queued or running) and not finished. */
    private final AtomicInteger handedOver = new AtomicInteger();

    RequestScheduler(int threads, String name) {
        this.workers = new ThreadPoolExecutor(threads, threads, 0L, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(threads), factory(name + "-request-"), new ThreadPoolExecutor.AbortPolicy()) {
            @Override
            protected void beforeExecute(Thread t, Runnable r) {
                // a queue slot was just freed: the longest parked request takes it
                drain();
            }
        };
    }

    private static ThreadFactory factory(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return r -> new Worker(r, prefix + count.incrementAndGet());
    }

    /** Hands {@code request} to a worker if one or a queue slot is free (and nothing is parked before it). */
    boolean offer(Runnable request) {
        if (!parked.isEmpty()) {
            return false;
        }
        return execute(request);
    }

    private boolean execute(Runnable request) {
        handedOver.incrementAndGet();
        try {
            workers.execute(() -> {
                Finished finished = new Finished();
                Worker worker = (Worker) Thread.currentThread();
                worker.finished = finished;
                try {
                    request.run();
                } finally {
                    worker.finished = null;
                    finished.run();
                }
            });
            return true;
        } catch (RejectedExecutionException e) {
            handedOver.decrementAndGet();
            return false;
        }
    }

    /**
     * Called by a request on a worker once it holds and waits for no lock any more, before its reply is written:
     * from then on it no longer keeps the workers from being {@link #idle}, so the client's next call, sent as soon
     * as the reply arrives, may run on the network thread (issue 16; counted until after the reply, that call
     * sometimes found the worker still busy). Locks a transaction spanning compounds keeps past its compound are
     * seen by the server's own inline guard (keys in use). No effect on other threads, nor twice.
     */
    static void finishing() {
        if (Thread.currentThread() instanceof Worker worker && worker.finished != null) {
            worker.finished.run();
        }
    }

    /** Takes a request off the count of those with the workers, once. Used by one worker thread only. */
    private final class Finished implements Runnable {
        private boolean done;

        @Override
        public void run() {
            if (!done) {
                done = true;
                handedOver.decrementAndGet();
            }
        }
    }

    /**
     * Whether no request is with the workers (queued, running or parked): then no other request holds file-system
     * locks, and a short one may run on the network thread without waiting for another.
     */
    boolean idle() {
        return handedOver.get() == 0 && parked.isEmpty() && !workers.isShutdown();
    }

    /**
     * Keeps {@code request} until a worker is free, then hands it over and runs {@code resumeReading}, on a
     * worker thread or the caller of {@link #drain} (never within this call).
     */
    void park(Runnable request, Runnable resumeReading) {
        parked.add(new Parked(request, resumeReading));
    }

    /** Requests parked now. */
    int parkedCount() {
        return parked.size();
    }

    /** Hands parked requests to workers while there is room. */
    void drain() {
        Parked p;
        while ((p = parked.poll()) != null) {
            if (!execute(p.request())) {
                parked.offerFirst(p);
                return;
            }
            try {
                p.resumeReading().run();
            } catch (RuntimeException e) {
                LOG.error("could not resume reading a connection", e);
            }
        }
    }

    void shutdown() {
        workers.shutdown();
    }

    /** Waits until the requests handed to workers before {@link #shutdown} have run; false on time-out. */
    boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return workers.awaitTermination(timeout, unit);
    }
}
