package org.tcnfs.txn.handles;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs the fsyncs of a compound's files at the same time rather than one after another: the file system
 * then writes their data together and shares journal flushes among them, where one after another each
 * waits for its own. Used for what a compound makes durable before its reply (its written files and
 * touched directories).
 *
 * <p>A sync handed to the pool that no pool thread has begun by the time the caller's own sync ended is run by
 * the caller ({@link #takenBack()}): on a loaded machine a woken pool thread may wait hundreds of microseconds for a
 * core (issue 16, branch h-handoff: at load 13-30, 1.6-7.8 % of one client's k=1 compounds found the row journal's
 * flush not yet begun when their file's fsync ended, and it began 0.8-2.2 ms later in the median), and the caller
 * would otherwise sleep until it had run, then wait to be woken in turn.
 *
 * <p>Thread-safe; the pool's threads are daemons, shared by all compounds.
 */
public final class FsyncPool {
    /**
     * Most fsyncs in flight at once, over all compounds, besides the ones the compounds' own threads run:
     * enough for the files of two default-sized compounds (16 files each) at once. With 8 the files of one
     * compound went out in two waves; 32 raised 8-client plain writes of 4 KiB files by 7-34% in two A/B
     * rounds (docs/benchmarks.md), idle threads cost nothing else.
     */
    public static final int THREADS = 32;

    private static final ExecutorService POOL = Executors.newFixedThreadPool(THREADS, r -> {
        Thread t = new Thread(r, "tcnfs-fsync");
        t.setDaemon(true);
        return t;
    });

    /** Syncs handed to the pool's threads since the start: each a thread hand-off (and back) for its caller. */
    private static final LongAdder HAND_OFFS = new LongAdder();
    /** Of {@link #HAND_OFFS}, syncs their caller ran after all because no pool thread had begun them. */
    private static final LongAdder TAKEN_BACK = new LongAdder();

    private FsyncPool() {
    }

    /**
     * Syncs handed to the pool's threads since the start (each a wake-up of a pool thread and of its caller,
     * tens of microseconds on a busy machine); the syncs {@link #runAll} runs on its caller are not counted.
     */
    public static long handOffs() {
        return HAND_OFFS.sum();
    }

    /**
     * Of {@link #handOffs()}, the syncs {@link #runAll}'s caller ran itself once its own had ended, because no pool
     * thread had begun them yet (the pool's threads were waiting for a core).
     */
    public static long takenBack() {
        return TAKEN_BACK.sum();
    }

    /** One fsync (or anything else that waits for the disk). */
    @FunctionalInterface
    public interface Sync {
        void run() throws IOException;
    }

    /**
     * One sync that runs {@code syncs} one after another on one thread: directories that share a journal, where the
     * first fsync commits what the others would (docs/benchmarks.md, "rm -rf per entry, sixth round"). Every sync
     * runs, also after one failed.
     *
     * @return a sync that throws the first failure (the later ones suppressed) after the last sync ended
     */
    public static Sync oneAfterAnother(List<? extends Sync> syncs) {
        List<Sync> chain = List.copyOf(syncs);
        return () -> {
            SyncFailures failures = new SyncFailures();
            for (Sync sync : chain) {
                failures.run(sync);
            }
            failures.throwIfAny();
        };
    }

    /**
     * Runs every sync, all at once (the first on the calling thread), and returns when all have ended. The others go
     * to the pool; those no pool thread has begun when the first has ended, the calling thread runs after it.
     *
     * @throws IOException the first failure, after every sync has ended
     */
    public static void runAll(List<? extends Sync> syncs) throws IOException {
        if (syncs.size() <= 1) {
            for (Sync sync : syncs) {
                sync.run();
            }
            return;
        }
        List<Handed> others = new ArrayList<>(syncs.size() - 1);
        for (Sync sync : syncs.subList(1, syncs.size())) {
            HAND_OFFS.increment();
            Handed handed = new Handed(sync);
            others.add(handed);
            POOL.execute(handed);
        }
        SyncFailures failures = new SyncFailures();
        failures.run(syncs.get(0));
        for (Handed other : others) {
            if (other.runIfNotBegun()) {
                TAKEN_BACK.increment();
            }
        }
        boolean interrupted = false;
        for (Handed other : others) {
            while (true) {
                try {
                    other.get();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    failures.add(e.getCause() instanceof IOException io ? io
                            : new IOException("sync failed: " + e.getCause(), e.getCause()));
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        failures.throwIfAny();
    }

    /** A sync handed to the pool, run once by whichever comes first: a pool thread, or the caller. */
    private static final class Handed extends FutureTask<Void> {
        private final AtomicBoolean begun = new AtomicBoolean();

        Handed(Sync sync) {
            super(() -> {
                sync.run();
                return null;
            });
        }

        /** Run by a pool thread: nothing if the caller has taken the sync back. */
        @Override
        public void run() {
            runIfNotBegun();
        }

        /** Runs the sync here unless a thread has begun it; true if it ran here. */
        boolean runIfNotBegun() {
            if (!begun.compareAndSet(false, true)) {
                return false;
            }
            super.run();
            return true;
        }
    }
}
