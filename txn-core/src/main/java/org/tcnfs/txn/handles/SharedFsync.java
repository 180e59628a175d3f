package org.tcnfs.txn.handles;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Shares fsyncs of one file or directory among the compounds that need it at the same moment: when several
 * compounds must make the same object durable (eight clients creating files in one directory, each compound
 * then syncing that directory), one fsync that <em>starts after</em> each one's change serves them all.
 *
 * <p><b>Rounds.</b> Per object (a {@code key} that names one file or directory for as long as its callers hold
 * their locks on it: a handle, or a {@code (st_dev, st_ino)} file key), callers join the round that has not
 * started yet. When no fsync of the object runs, one member of that round runs its own fsync for the round
 * (any descriptor of the object will do: fsync flushes the inode, whichever descriptor names it) and every
 * member returns with its outcome. Callers that arrive while a round's fsync runs join the next round: an
 * fsync that began before a caller's change never counts for it. So each caller returns only after an fsync
 * that started after its call completed, and a failed fsync fails every member of its round (their changes
 * may not be durable); the next round tries again. Without contention a caller runs its own fsync at once.
 *
 * <p><b>Bounds.</b> The table holds one small entry per object being synced at this moment and drops it when
 * its last caller leaves.
 *
 * <p>Thread-safe; callers block (uninterruptibly) while another caller's fsync of the same object runs.
 */
public final class SharedFsync {
    /**
     * Test injection: {@code -Dtcnfs.test.fsync-delay-ms=N} makes every fsync run here take N ms longer (a slow disk),
     * so that integration tests can see what overlaps a flush (early lock release). Off (0) in production.
     */
    public static final String DELAY_PROPERTY = "tcnfs.test.fsync-delay-ms";
    private static final long DELAY_MILLIS = Math.max(0, Long.getLong(DELAY_PROPERTY, 0L));

    private final ReentrantLock lock = new ReentrantLock();
    private final Map<Object, Entry> entries = new HashMap<>();
    private final LongAdder requests = new LongAdder();
    private final LongAdder runs = new LongAdder();

    /** The syncs of one object in progress: the round running, the round gathering. */
    private static final class Entry {
        final Condition changed;
        /** The round that has not started yet, which new callers join; null when none has a member. */
        Round next;
        boolean running;
        int users;

        Entry(Condition changed) {
            this.changed = changed;
        }
    }

    /** One fsync and the callers it serves. */
    private static final class Round {
        boolean done;
        Throwable failure;
    }

    /**
     * Returns once an fsync of the object {@code key} names that started after this call began has
     * completed: {@code sync} itself, or another caller's.
     *
     * @param key names the object; equal keys must name the same object while their callers wait
     * @param sync the caller's own fsync of the object, run if the caller leads its round
     * @throws IOException the failure of the fsync that served the caller
     */
    public void sync(Object key, FsyncPool.Sync sync) throws IOException {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(sync, "sync");
        requests.increment();
        Round mine;
        lock.lock();
        try {
            Entry entry = entries.computeIfAbsent(key, k -> new Entry(lock.newCondition()));
            entry.users++;
            if (entry.next == null) {
                entry.next = new Round();
            }
            mine = entry.next;
            try {
                while (!mine.done) {
                    if (entry.running) {
                        entry.changed.awaitUninterruptibly();
                        continue;
                    }
                    // no fsync runs and this round has not started: every member joined before this point
                    entry.running = true;
                    entry.next = null;
                    Throwable failure = null;
                    lock.unlock();
                    try {
                        runs.increment();
                        if (DELAY_MILLIS > 0) {
                            delay();
                        }
                        sync.run();
                    } catch (IOException | RuntimeException | Error e) {
                        failure = e;
                    } finally {
                        lock.lock();
                    }
                    mine.failure = failure;
                    mine.done = true;
                    entry.running = false;
                    entry.changed.signalAll();
                }
            } finally {
                if (--entry.users == 0) {
                    entries.remove(key);
                }
            }
        } finally {
            lock.unlock();
        }
        Throwable failure = mine.failure;
        if (failure instanceof IOException e) {
            throw e;
        }
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
    }

    private static void delay() {
        try {
            Thread.sleep(DELAY_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Syncs asked for since the start (each served by one fsync). */
    public long requests() {
        return requests.sum();
    }

    /** Fsyncs run since the start: {@link #requests()} less those that shared another caller's fsync. */
    public long runs() {
        return runs.sum();
    }

    /** Callers syncing {@code key} now, running or waiting (tests). */
    int callers(Object key) {
        lock.lock();
        try {
            Entry entry = entries.get(key);
            return entry == null ? 0 : entry.users;
        } finally {
            lock.unlock();
        }
    }

    /** Objects with a sync in progress now (tests). */
    int inProgress() {
        lock.lock();
        try {
            return entries.size();
        } finally {
            lock.unlock();
        }
    }
}
