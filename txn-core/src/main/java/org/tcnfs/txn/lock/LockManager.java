package org.tcnfs.txn.lock;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Locks the keys of a compound all at once, one {@link ReentrantReadWriteLock} per key in use (DESIGN.md,
 * "The transaction protocol", step 3).
 *
 * <p>{@link #acquire} expands and merges the requested keys (every path key also read-locks each of its
 * ancestors up to the export root; a key wanted both ways is locked once, for writing) and takes them in
 * the total order of {@link LockKey#compareTo}, a parent before its children. Every set is taken in that
 * one order, and a set never waits while it holds a key that sorts after the one it waits for, so no
 * deadlock is possible. Locks are exact: two compounds conflict only when they share a key and one of them
 * writes it, however many keys they hold (a compound of 1,000 files does not queue behind another one in
 * a different directory).
 *
 * <p>A key's lock exists only while some set holds it or waits for it: it is created on first use and
 * dropped when the last user lets go ({@link #keysInUse()}), so memory follows the keys in use, not every
 * key ever locked.
 *
 * <p><b>Threading.</b> Thread-safe. A thread holds at most one open {@link LockSet} of a manager at a
 * time (a second {@link #acquire} before closing the first throws {@link IllegalStateException}: it would
 * break the global order, and a read lock followed by a write lock of the same key would wait for itself).
 * A set is closed on the thread that acquired it.
 *
 * <p><b>Metrics.</b> {@link #acquisitions()}, {@link #waitNanos()} and {@link #timeouts()} are monotonic
 * counters, cheap to read at any time.
 */
public final class LockManager {
    private static final Logger LOG = LoggerFactory.getLogger(LockManager.class);

    private final ConcurrentHashMap<LockKey, KeyLock> locks = new ConcurrentHashMap<>();
    private final ThreadLocal<LockSet> openSet = new ThreadLocal<>();
    private final LongAdder acquisitions = new LongAdder();
    private final LongAdder waitNanos = new LongAdder();
    private final LongAdder timeouts = new LongAdder();

    /** The lock of one key, with the number of sets holding or waiting for it (guarded by the map). */
    static final class KeyLock extends ReentrantReadWriteLock {
        private static final long serialVersionUID = 1L;
        private int users;
    }

    /**
     * Locks every requested key in its mode and every ancestor of every path key for reading, all or
     * nothing, waiting at most {@code timeout} in total.
     *
     * @param requests the keys and modes; duplicates are merged (WRITE wins); may be empty
     * @param timeout  the longest total wait, not negative; zero tries once without waiting
     * @return the held locks; close it on this thread, after commit or rollback
     * @throws LockTimeoutException      if not every lock was granted in time; nothing is held
     * @throws LockInterruptedException  if the thread was interrupted while waiting; nothing is held and
     *                                   the interrupt flag is set
     * @throws IllegalStateException     if this thread already holds an open set of this manager
     * @throws IllegalArgumentException  if {@code timeout} is negative
     */
    public LockSet acquire(Collection<LockRequest> requests, Duration timeout)
            throws LockTimeoutException, LockInterruptedException {
        Objects.requireNonNull(requests, "requests");
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("negative timeout: " + timeout);
        }
        LockSet current = openSet.get();
        if (current != null) {
            throw new IllegalStateException("this thread already holds a lock set of this manager: " + current);
        }
        Map<LockKey, LockMode> keys = expand(requests);
        LockKey[] order = keys.keySet().toArray(new LockKey[0]);
        Arrays.sort(order);

        long start = System.nanoTime();
        long timeoutNanos = nanos(timeout);
        Lock[] taken = new Lock[order.length];
        int count = 0;
        boolean success = false;
        try {
            for (LockKey key : order) {
                LockMode mode = keys.get(key);
                KeyLock rw = pin(key);
                Lock lock = mode == LockMode.WRITE ? rw.writeLock() : rw.readLock();
                boolean granted = false;
                try {
                    long remaining = Math.max(0, timeoutNanos - (System.nanoTime() - start));
                    granted = lock.tryLock(remaining, TimeUnit.NANOSECONDS);
                } finally {
                    if (!granted) {
                        unpin(key);
                    }
                }
                if (!granted) {
                    timeouts.increment();
                    LOG.debug("lock timeout after {} waiting for {} on {}", timeout, mode, key);
                    throw new LockTimeoutException(timeout, key, mode);
                }
                taken[count++] = lock;
            }
            success = true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockInterruptedException(e);
        } finally {
            waitNanos.add(System.nanoTime() - start);
            if (!success) {
                release(order, taken, count);
            }
        }
        acquisitions.increment();
        LockSet set = new LockSet(this, Thread.currentThread(), keys, order, taken);
        openSet.set(set);
        return set;
    }

    /** Number of successful {@link #acquire} calls. */
    public long acquisitions() {
        return acquisitions.sum();
    }

    /** Total nanoseconds spent inside {@link #acquire} taking locks, successful or not. */
    public long waitNanos() {
        return waitNanos.sum();
    }

    /** Number of {@link #acquire} calls that failed with {@link LockTimeoutException}. */
    public long timeouts() {
        return timeouts.sum();
    }

    /** The number of keys that some set holds or waits for right now (0 when the manager is idle). */
    public int keysInUse() {
        return locks.size();
    }

    /** The lock of {@code key} while it is in use, else null; for tests that inspect its state. */
    ReentrantReadWriteLock lockOf(LockKey key) {
        return locks.get(key);
    }

    /** Called by {@link LockSet#close()} on the owner thread after releasing. */
    void closed(LockSet set) {
        if (openSet.get() == set) {
            openSet.remove();
        }
    }

    /** Releases {@code locks[0..count)} in reverse order and lets go of their keys. */
    void release(LockKey[] keys, Lock[] locks, int count) {
        for (int i = count - 1; i >= 0; i--) {
            locks[i].unlock();
            unpin(keys[i]);
        }
    }

    /** The lock of {@code key}, created if no one uses it, counted as used until {@link #unpin}. */
    private KeyLock pin(LockKey key) {
        return locks.compute(key, (k, lock) -> {
            KeyLock result = lock == null ? new KeyLock() : lock;
            result.users++;
            return result;
        });
    }

    /** Stops using the lock of {@code key}; the last user removes it. */
    private void unpin(LockKey key) {
        locks.computeIfPresent(key, (k, lock) -> --lock.users == 0 ? null : lock);
    }

    /** The requested keys plus the ancestors of path keys, each once, WRITE winning over READ. */
    private static Map<LockKey, LockMode> expand(Collection<LockRequest> requests) {
        Map<LockKey, LockMode> keys = new HashMap<>(requests.size() * 4);
        for (LockRequest request : requests) {
            Objects.requireNonNull(request, "request");
            keys.merge(request.key(), request.mode(), LockMode::strongerOf);
            for (LockKey ancestor : request.key().ancestors()) {
                keys.putIfAbsent(ancestor, LockMode.READ);
            }
        }
        return keys;
    }

    private static long nanos(Duration timeout) {
        try {
            return timeout.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
