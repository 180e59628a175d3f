package org.tcnfs.txn.lock;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Locks the keys of a compound all at once, over a fixed array of striped {@link ReentrantReadWriteLock}s
 * (DESIGN.md, "The transaction protocol", step 3).
 *
 * <p>{@link #acquire} expands and merges the requested keys (every path key also read-locks each of its
 * ancestors up to the export root; a key wanted both ways is written), maps each key to its stripe, merges
 * the stripes (a stripe that any key needs for writing is taken for writing, once), and takes the stripes
 * in ascending index order. Every set is taken in that one total order, and a set never waits while it
 * holds a higher stripe than the one it waits for, so no deadlock is possible. Sharing a stripe can make
 * two unrelated keys conflict (a false conflict), never let two conflicting keys in together.
 *
 * <p><b>Threading.</b> Thread-safe. A thread holds at most one open {@link LockSet} of a manager at a
 * time (a second {@link #acquire} before closing the first throws {@link IllegalStateException}: it would
 * break the global order, and a read stripe followed by a write of the same stripe would wait for
 * itself). A set is closed on the thread that acquired it.
 *
 * <p><b>Metrics.</b> {@link #acquisitions()}, {@link #waitNanos()} and {@link #timeouts()} are monotonic
 * counters, cheap to read at any time.
 */
public final class LockManager {
    private static final Logger LOG = LoggerFactory.getLogger(LockManager.class);

    /** The stripe count of {@link #LockManager()}. */
    public static final int DEFAULT_STRIPES = 4096;
    /** The largest stripe count accepted. */
    public static final int MAX_STRIPES = 1 << 24;

    private final ReentrantReadWriteLock[] stripes;
    private final ThreadLocal<LockSet> openSet = new ThreadLocal<>();
    private final LongAdder acquisitions = new LongAdder();
    private final LongAdder waitNanos = new LongAdder();
    private final LongAdder timeouts = new LongAdder();

    /** A manager with {@value #DEFAULT_STRIPES} stripes. */
    public LockManager() {
        this(DEFAULT_STRIPES);
    }

    /**
     * A manager with {@code stripeCount} stripes (non-fair locks).
     *
     * @throws IllegalArgumentException unless {@code 1 <= stripeCount <= MAX_STRIPES}
     */
    public LockManager(int stripeCount) {
        if (stripeCount < 1 || stripeCount > MAX_STRIPES) {
            throw new IllegalArgumentException("stripe count must be in [1, " + MAX_STRIPES + "]: " + stripeCount);
        }
        stripes = new ReentrantReadWriteLock[stripeCount];
        for (int i = 0; i < stripeCount; i++) {
            stripes[i] = new ReentrantReadWriteLock();
        }
    }

    /** The number of stripes. */
    public int stripeCount() {
        return stripes.length;
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
        long[] plan = plan(keys);

        long start = System.nanoTime();
        long timeoutNanos = nanos(timeout);
        Lock[] taken = new Lock[plan.length];
        int count = 0;
        boolean success = false;
        try {
            for (long entry : plan) {
                int stripe = stripeOfEntry(entry);
                LockMode mode = modeOfEntry(entry);
                ReentrantReadWriteLock rw = stripes[stripe];
                Lock lock = mode == LockMode.WRITE ? rw.writeLock() : rw.readLock();
                long remaining = Math.max(0, timeoutNanos - (System.nanoTime() - start));
                if (!lock.tryLock(remaining, TimeUnit.NANOSECONDS)) {
                    timeouts.increment();
                    LockKey example = someKeyOn(keys, stripe);
                    LOG.debug("lock timeout after {} waiting for {} on stripe {} (e.g. {})",
                            timeout, mode, stripe, example);
                    throw new LockTimeoutException(timeout, example, mode);
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
                release(taken, count);
            }
        }
        acquisitions.increment();
        LockSet set = new LockSet(this, Thread.currentThread(), Collections.unmodifiableMap(keys), taken);
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

    /** The stripe of {@code key}: its hash, spread, modulo the stripe count. */
    int stripeOf(LockKey key) {
        int h = key.hashCode();
        // murmur3 finalizer: spread every bit of the hash over the whole word
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return Math.floorMod(h, stripes.length);
    }

    /** The lock of stripe {@code index}, for tests that inspect the state of a stripe. */
    ReentrantReadWriteLock stripe(int index) {
        return stripes[index];
    }

    /** Called by {@link LockSet#close()} on the owner thread after releasing. */
    void closed(LockSet set) {
        if (openSet.get() == set) {
            openSet.remove();
        }
    }

    /** Releases {@code locks[0..count)} in reverse order. */
    static void release(Lock[] locks, int count) {
        for (int i = count - 1; i >= 0; i--) {
            locks[i].unlock();
        }
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

    /**
     * The stripes to take, ascending, each once: entries {@code stripe << 1 | write}, merged so a stripe
     * that any key needs for writing is one WRITE entry.
     */
    private long[] plan(Map<LockKey, LockMode> keys) {
        long[] entries = new long[keys.size()];
        int n = 0;
        for (Map.Entry<LockKey, LockMode> e : keys.entrySet()) {
            entries[n++] = ((long) stripeOf(e.getKey()) << 1) | (e.getValue() == LockMode.WRITE ? 1 : 0);
        }
        Arrays.sort(entries);
        int distinct = 0;
        for (int i = 0; i < n; i++) {
            if (distinct > 0 && (entries[distinct - 1] >>> 1) == (entries[i] >>> 1)) {
                entries[distinct - 1] |= entries[i] & 1;
            } else {
                entries[distinct++] = entries[i];
            }
        }
        return Arrays.copyOf(entries, distinct);
    }

    private static int stripeOfEntry(long entry) {
        return (int) (entry >>> 1);
    }

    private static LockMode modeOfEntry(long entry) {
        return (entry & 1) != 0 ? LockMode.WRITE : LockMode.READ;
    }

    private LockKey someKeyOn(Map<LockKey, LockMode> keys, int stripe) {
        LockKey best = null;
        for (LockKey key : keys.keySet()) {
            if (stripeOf(key) == stripe && (best == null || key.compareTo(best) < 0)) {
                best = key;
            }
        }
        return best;
    }

    private static long nanos(Duration timeout) {
        try {
            return timeout.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
