package org.tcnfs.txn.lock;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The changes of a compound that {@linkplain LockSet#releaseEarly() released its locks early}, before they were
 * durable: done once they are durable ({@link #complete}), or failed when making them durable failed.
 *
 * <p>Early lock release (the classic rule): a compound that takes a key such a compound held for writing, before
 * that compound's changes are durable, may read or build on them; so it depends on them ({@link
 * LockSet#dependencies()}) and must not reply before they are durable ({@link LockSet#awaitDependencies()}).
 * The compound that released early completes only after its own dependencies completed, so dependencies are
 * followed transitively through the latest compound of each key. A compound waits only for compounds that released
 * their locks before it took them, so waits always point back in time and cannot form a cycle.
 *
 * <p>Thread-safe. Completed once; later calls of {@link #complete} are ignored.
 */
public final class PendingDurability {
    private final CountDownLatch done = new CountDownLatch(1);
    private final List<Runnable> whenDone = new ArrayList<>(2);
    private volatile Throwable failure;
    private boolean completed;

    PendingDurability() {
    }

    /** Whether the changes are durable, or making them durable failed. */
    public boolean isDone() {
        return done.getCount() == 0;
    }

    /**
     * Marks the changes durable ({@code failure} null) or not made durable ({@code failure} what failed), wakes
     * the compounds that depend on them and lets the lock manager forget them. Only the first call counts.
     */
    public void complete(Throwable failure) {
        List<Runnable> actions;
        synchronized (this) {
            if (completed) {
                return;
            }
            completed = true;
            this.failure = failure;
            actions = List.copyOf(whenDone);
            whenDone.clear();
        }
        done.countDown();
        actions.forEach(Runnable::run);
    }

    /** Runs {@code action} once completed (at once, on this thread, if it is). */
    void whenDone(Runnable action) {
        synchronized (this) {
            if (!completed) {
                whenDone.add(action);
                return;
            }
        }
        action.run();
    }

    /**
     * Waits (uninterruptibly) until completed.
     *
     * @throws IOException when making the changes durable failed: what depends on them is not durable either
     */
    public void await() throws IOException {
        boolean interrupted = false;
        while (true) {
            try {
                done.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable f = failure;
        if (f != null) {
            throw new IOException("a compound whose changes this one saw could not make them durable: " + f, f);
        }
    }
}
