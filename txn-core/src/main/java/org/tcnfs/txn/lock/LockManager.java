package org.tcnfs.txn.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Locks the keys of a compound all at once, one read-write lock per key in use, owned by a {@link LockOwner}
 * (DESIGN.md, "The transaction protocol", step 3).
 *
 * <p>{@link #acquire} expands and merges the requested keys (every path key also read-locks each of its
 * ancestors up to the export root; a key wanted both ways is locked once, for writing) and takes them in
 * the total order of {@link LockKey#compareTo}, a parent before its children. Every set is taken in that
 * one order, and a set never waits while it holds a key that sorts after the one it waits for, so no
 * deadlock is possible. Locks are exact: two compounds conflict only when they share a key and one of them
 * writes it, however many keys they hold (a compound of 1,000 files does not queue behind another one in
 * a different directory).
 *
 * <p><b>No starvation: requests of a key are served in arrival order across modes.</b> A compound that asks
 * to read a key for which a writer that arrived before it waits, waits too (unless it already holds the key),
 * so a stream of readers cannot starve a writer; and a single compound's writer gives way to single compounds'
 * readers that arrived before it and wait, so a stream of writers cannot starve the readers queued between
 * them. Readers that arrive together still share the key. Limits that keep this free of deadlock: a compound
 * that holds no key yet gives way to any earlier writer (nothing can wait for it, so its wait closes no cycle);
 * one that holds keys gives way only to single compounds, and only while no transaction that spans compounds
 * holds the key. Every wait this adds is for a request of the same key that arrived earlier, which waits for
 * the holders of that key, which wait only for keys after it: keys never decrease along a chain of waits, and
 * arrivals strictly decrease among waits for the same key, so the global order still rules out deadlock among
 * single compounds, and no wait for a transaction that spans compounds is added beyond what wait-die allows.
 * A transaction that spans compounds takes keys as before, without giving way.
 *
 * <p>A key's lock exists only while some set holds it or waits for it: it is created on first use and
 * dropped when the last user lets go ({@link #keysInUse()}), so memory follows the keys in use, not every
 * key ever locked.
 *
 * <p><b>Quiet reads.</b> A compound that only reads may instead {@link #enterQuietRead() enter a quiet read}: it
 * takes no key at all while no set holds or waits for a WRITE lock anywhere, and a set that wants a WRITE lock
 * first waits (within its timeout) until the quiet reads in flight have ended, while new ones are refused and take
 * keys the ordinary way. So a quiet read never overlaps a writer, which is what the read locks of its keys would
 * have guaranteed, without the work of planning its keys, expanding, sorting and taking them (issue 16: a
 * recursive listing spends a third of the server's CPU there). Two counters decide it, each changed by one
 * atomic operation (a reader raises its count and then reads the writers' count, a writer the other way round,
 * so at least one of them sees the other); a writer that finds quiet readers waits on a monitor that the last of
 * them notifies.
 *
 * <p><b>Threading.</b> Thread-safe. A thread holds at most one open {@link LockSet} of a manager at a
 * time (a second {@link #acquire} before closing the first throws {@link IllegalStateException}: it would
 * break the global order, and a read lock followed by a write lock of the same key would wait for itself).
 * A set is closed on the thread that acquired it. A transaction that spans compounds ({@link #acquireFor})
 * is the exception: it adds sets compound by compound, in no global order, so it may deadlock with another;
 * wait-die on its {@link LockOwner#ticket()} prevents that (an older owner waits, a younger one dies with
 * {@link WaitDieException}), and a single compound never waits for such a transaction (it dies at once).
 *
 * <p><b>Metrics.</b> {@link #acquisitions()}, {@link #waitNanos()}, {@link #timeouts()} and {@link #waitDies()}
 * are monotonic
 * counters, cheap to read at any time. {@link #blockedWaits} and {@link #blockedNanos} count only the time a
 * set really waited for a key held by another, by the {@link KeyRole} of that key and the mode it wanted, so an
 * operator sees which locks compounds queue on (a shared directory, the same files, a whole export).
 */
public final class LockManager {
    private static final Logger LOG = LoggerFactory.getLogger(LockManager.class);

    private final ConcurrentHashMap<LockKey, KeyLock> locks = new ConcurrentHashMap<>();
    private final ThreadLocal<LockSet> openSet = new ThreadLocal<>();
    private final LongAdder acquisitions = new LongAdder();
    private final LongAdder waitNanos = new LongAdder();
    private final LongAdder timeouts = new LongAdder();
    private final LongAdder waitDies = new LongAdder();
    /** Quiet reads in flight. */
    private final AtomicInteger quietReaders = new AtomicInteger();
    /** Sets that hold or wait for a WRITE lock. */
    private final AtomicInteger writers = new AtomicInteger();
    /** Where writers wait for the quiet reads in flight to end. */
    private final Object quietDrained = new Object();
    private final LongAdder quietReads = new LongAdder();
    /** Per {@link KeyRole} and {@link LockMode} (ordinal {@code role * 2 + mode}): waits and their nanoseconds. */
    private final LongAdder[] blockedWaits = adders(KeyRole.values().length * LockMode.values().length);
    private final LongAdder[] blockedNanos = adders(KeyRole.values().length * LockMode.values().length);
    /**
     * Per key, the latest compound that held it for writing and {@linkplain LockSet#releaseEarly() released it}
     * before its changes were durable; an entry goes when that compound's changes are durable. At most one entry
     * per key written by a compound still flushing.
     */
    private final ConcurrentHashMap<LockKey, PendingDurability> unflushed = new ConcurrentHashMap<>();
    /** Every compound that released early and is not durable yet: a whole-export lock depends on all of them. */
    private final java.util.Set<PendingDurability> flushing = ConcurrentHashMap.newKeySet();
    private final LongAdder earlyReleases = new LongAdder();
    private final LongAdder dependencies = new LongAdder();

    /** What a key is to the set that waits for it, for the blocked-wait counters. */
    public enum KeyRole {
        /** The root of an export: a whole-export lock, or the ancestor of everything. */
        EXPORT_ROOT,
        /** A path key with another key of the same set beneath it: a directory the compound works in. */
        DIRECTORY,
        /** A path key with nothing of the same set beneath it: a file or a name. */
        NAME,
        /** An object key (a file by its handle). */
        OBJECT;

        /** The role of {@code order[i]} in a set sorted by {@link LockKey#compareTo}. */
        static KeyRole of(LockKey[] order, int i) {
            LockKey key = order[i];
            if (key.isObject()) {
                return OBJECT;
            }
            if (key.isRoot()) {
                return EXPORT_ROOT;
            }
            // a key's descendants sort right after it, so a directory's next key lies beneath it
            return i + 1 < order.length && key.isAncestorOf(order[i + 1]) ? DIRECTORY : NAME;
        }
    }

    /**
     * The lock of one key: a read-write lock owned by {@link LockOwner}s rather than threads (a transaction
     * that spans compounds holds it across requests served by different threads), reentrant per owner, with
     * an upgrade from READ to WRITE when the owner is the only reader. {@code users} (sets holding or waiting
     * for it) is guarded by the map; the rest by the object's monitor.
     */
    static final class KeyLock {
        private int users;
        private LockOwner writer;
        private int writeHolds;
        /**
         * The owners that hold it for reading, each once, {@link #reader(int) reader(0..readerCount)}, with their
         * holds: the first in fields, the others in arrays scanned in order, made only when a second reader comes.
         * A compound's lock of a key lives from its first use to its last release, and most have one reader at a
         * time, so most are made and dropped without an array (issue 16, h-warm).
         */
        private LockOwner firstReader;
        private int firstHolds;
        private LockOwner[] moreReaders;
        private int[] moreHolds;
        private int readerCount;
        /** Numbers the requests in the order they arrive. */
        private long arrivals;
        /** The requests waiting for it, in arrival order; null until the first waits. */
        private java.util.List<Waiter> waiters;

        /** A request that waits: when it arrived, whose it is, for what, on which thread. */
        private record Waiter(long arrival, LockOwner owner, LockMode mode, Thread thread) {
        }

        private boolean grantable(LockOwner owner, LockMode mode, boolean holdsNothing, long arrival) {
            if (writer != null && writer != owner) {
                return false;
            }
            if (mode == LockMode.READ) {
                return !givesWayToEarlierWriter(owner, holdsNothing, arrival);
            }
            if (readerCount > 1 || readerCount == 1 && firstReader != owner) {
                return false;
            }
            return !givesWayToEarlierReader(owner, arrival);
        }

        /**
         * Whether a READ of {@code owner} waits for a writer that arrived before it and waits (see the class
         * comment, "Writers first").
         */
        private boolean givesWayToEarlierWriter(LockOwner owner, boolean holdsNothing, long arrival) {
            if (noWaiters() || owner.spansCompounds() || writer == owner || readerIndex(owner) >= 0) {
                return false;
            }
            boolean spanningHolder = !holdsNothing && heldByATransactionThatSpansCompounds();
            for (Waiter w : waiters) {
                if (w.arrival() >= arrival) {
                    break;
                }
                if (w.mode() == LockMode.WRITE && w.owner() != owner
                        && (holdsNothing || (!w.owner().spansCompounds() && !spanningHolder))) {
                    return true;
                }
            }
            return false;
        }

        /**
         * Whether a WRITE of {@code owner}, a single compound, waits for a single compound's READ that arrived
         * before it and waits, so that readers waiting behind a writer are not overtaken by the next writer.
         */
        private boolean givesWayToEarlierReader(LockOwner owner, long arrival) {
            if (noWaiters() || owner.spansCompounds() || heldByATransactionThatSpansCompounds()) {
                return false;
            }
            for (Waiter w : waiters) {
                if (w.arrival() >= arrival) {
                    break;
                }
                if (w.mode() == LockMode.READ && w.owner() != owner && !w.owner().spansCompounds()) {
                    return true;
                }
            }
            return false;
        }

        private boolean heldByATransactionThatSpansCompounds() {
            if (writer != null && writer.spansCompounds()) {
                return true;
            }
            for (int i = 0; i < readerCount; i++) {
                if (reader(i).spansCompounds()) {
                    return true;
                }
            }
            return false;
        }

        /** Where {@code owner} is among the readers, or -1. */
        private int readerIndex(LockOwner owner) {
            for (int i = 0; i < readerCount; i++) {
                if (reader(i) == owner) {
                    return i;
                }
            }
            return -1;
        }

        private boolean noWaiters() {
            return waiters == null || waiters.isEmpty();
        }

        /** The {@code i}th reader, {@code 0 <= i < readerCount}. */
        private LockOwner reader(int i) {
            return i == 0 ? firstReader : moreReaders[i - 1];
        }

        /** The read holds of the {@code i}th reader. */
        private int holds(int i) {
            return i == 0 ? firstHolds : moreHolds[i - 1];
        }

        /** Makes {@code owner} the {@code i}th reader with {@code holds} holds (null and 0 empty the place). */
        private void setReader(int i, LockOwner owner, int holds) {
            if (i == 0) {
                firstReader = owner;
                firstHolds = holds;
            } else {
                moreReaders[i - 1] = owner;
                moreHolds[i - 1] = holds;
            }
        }

        /** One more read hold of {@code owner}. */
        private void addReadHold(LockOwner owner) {
            int i = readerIndex(owner);
            if (i >= 0) {
                setReader(i, owner, holds(i) + 1);
                return;
            }
            if (readerCount > 0) {
                if (moreReaders == null) {
                    moreReaders = new LockOwner[2];
                    moreHolds = new int[2];
                } else if (readerCount - 1 == moreReaders.length) {
                    moreReaders = Arrays.copyOf(moreReaders, moreReaders.length * 2);
                    moreHolds = Arrays.copyOf(moreHolds, moreHolds.length * 2);
                }
            }
            setReader(readerCount++, owner, 1);
        }

        /** An older holder the request must not wait for (wait-die), or null. */
        private LockOwner olderConflict(LockOwner owner, LockMode mode, boolean holdsNothing) {
            if (holdsNothing && !owner.spansCompounds()) {
                return null; // no one can wait for a compound that holds nothing: its wait closes no cycle
            }
            if (writer != null && writer != owner && owner.diesFor(writer)) {
                return writer;
            }
            if (mode == LockMode.WRITE) {
                for (int i = 0; i < readerCount; i++) {
                    if (reader(i) != owner && owner.diesFor(reader(i))) {
                        return reader(i);
                    }
                }
            }
            return null;
        }

        /**
         * Grants or throws; waits at most until {@code deadline} (System.nanoTime()). Answers the nanoseconds it
         * waited (0: granted at once), or -1 if not granted in time.
         */
        synchronized long lock(LockOwner owner, LockMode mode, long deadline, LockKey key, boolean holdsNothing)
                throws InterruptedException, WaitDieException {
            long arrival = ++arrivals;
            long waited = 0;
            if (!grantable(owner, mode, holdsNothing, arrival)) {
                long start = System.nanoTime();
                Waiter waiter = new Waiter(arrival, owner, mode, Thread.currentThread());
                if (waiters == null) {
                    waiters = new java.util.ArrayList<>();
                }
                waiters.add(waiter);
                try {
                    while (!grantable(owner, mode, holdsNothing, arrival)) {
                        LockOwner older = olderConflict(owner, mode, holdsNothing);
                        if (older != null) {
                            throw new WaitDieException(owner, key, older);
                        }
                        long left = deadline - System.nanoTime();
                        if (left <= 0) {
                            return -1;
                        }
                        TimeUnit.NANOSECONDS.timedWait(this, left);
                    }
                } finally {
                    waiters.remove(waiter);
                    notifyAll(); // requests that gave way to this one look again
                }
                waited = Math.max(1, System.nanoTime() - start);
            }
            if (mode == LockMode.WRITE) {
                writer = owner;
                writeHolds++;
            } else {
                addReadHold(owner);
            }
            return waited;
        }

        synchronized void unlock(LockOwner owner, LockMode mode) {
            if (mode == LockMode.WRITE) {
                if (writer != owner || writeHolds == 0) {
                    throw new IllegalMonitorStateException("not write-locked by " + owner);
                }
                if (--writeHolds == 0) {
                    writer = null;
                }
            } else {
                int i = readerIndex(owner);
                if (i < 0) {
                    throw new IllegalMonitorStateException("not read-locked by " + owner);
                }
                int left = holds(i) - 1;
                if (left > 0) {
                    setReader(i, owner, left);
                } else {
                    // the last reader takes its place: the order of readers does not matter
                    int last = --readerCount;
                    setReader(i, reader(last), holds(last));
                    setReader(last, null, 0);
                }
            }
            notifyAll();
        }

        /** Whether some owner holds it for writing. */
        synchronized boolean isWriteLocked() {
            return writer != null;
        }

        /** Whether the single compound of the current thread holds it for writing. */
        synchronized boolean isWriteLockedByCurrentThread() {
            return writer != null && writer.thread() == Thread.currentThread();
        }

        /** The write holds of the current thread's single compound. */
        synchronized int getWriteHoldCount() {
            return isWriteLockedByCurrentThread() ? writeHolds : 0;
        }

        /** The read holds of the current thread's single compound. */
        synchronized int getReadHoldCount() {
            int n = 0;
            for (int i = 0; i < readerCount; i++) {
                if (reader(i).thread() == Thread.currentThread()) {
                    n += holds(i);
                }
            }
            return n;
        }

        /** The number of read holds of all owners. */
        synchronized int getReadLockCount() {
            int n = 0;
            for (int i = 0; i < readerCount; i++) {
                n += holds(i);
            }
            return n;
        }

        /** Whether {@code thread} waits for it. */
        synchronized boolean hasQueuedThread(Thread thread) {
            if (noWaiters()) {
                return false;
            }
            for (Waiter w : waiters) {
                if (w.thread() == thread) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * Locks every requested key in its mode and every ancestor of every path key for reading, all or
     * nothing, waiting at most {@code timeout} in total.
     *
     * @param requests the keys and modes; duplicates are merged (WRITE wins); may be empty
     * @param timeout  the longest total wait, not negative; zero tries once without waiting
     * @return the held locks; close it on this thread, after commit or rollback
     * @throws LockTimeoutException      if not every lock was granted in time; nothing is held
     * @throws WaitDieException          if a key is held by a transaction that spans compounds (a single
     *                                   compound never waits for one); nothing is held
     * @throws LockInterruptedException  if the thread was interrupted while waiting; nothing is held and
     *                                   the interrupt flag is set
     * @throws IllegalStateException     if this thread already holds an open set of this manager
     * @throws IllegalArgumentException  if {@code timeout} is negative
     */
    public LockSet acquire(Collection<LockRequest> requests, Duration timeout)
            throws LockTimeoutException, LockInterruptedException, WaitDieException {
        LockSet current = openSet.get();
        if (current != null) {
            throw new IllegalStateException("this thread already holds a lock set of this manager: " + current);
        }
        LockSet set = acquire(LockOwner.compound(), requests, timeout);
        openSet.set(set);
        return set;
    }

    /**
     * Locks for {@code owner}, a transaction that spans compounds, in addition to what it already holds: every
     * requested key in its mode and every ancestor of every path key for reading, all or nothing, waiting at
     * most {@code timeout} in total and only for younger holders (wait-die, see {@link LockOwner}). A key the
     * owner holds is taken again (reentrant); a key it holds for reading alone is upgraded to WRITE once it is
     * the only reader. The set may be closed on any thread.
     *
     * @throws WaitDieException if a key is held by an older transaction; nothing of this request is held
     * @throws LockTimeoutException if not every lock was granted in time; nothing of this request is held
     */
    public LockSet acquireFor(LockOwner owner, Collection<LockRequest> requests, Duration timeout)
            throws LockTimeoutException, LockInterruptedException, WaitDieException {
        if (!owner.spansCompounds()) {
            throw new IllegalArgumentException("not the owner of a transaction that spans compounds: " + owner);
        }
        return acquire(owner, requests, timeout);
    }

    private LockSet acquire(LockOwner owner, Collection<LockRequest> requests, Duration timeout)
            throws LockTimeoutException, LockInterruptedException, WaitDieException {
        Objects.requireNonNull(requests, "requests");
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("negative timeout: " + timeout);
        }
        Map<LockKey, LockMode> keys = expand(requests);
        LockKey[] order = keys.keySet().toArray(new LockKey[0]);
        Arrays.sort(order);

        long start = System.nanoTime();
        long deadline = start + Math.min(nanos(timeout), Long.MAX_VALUE / 4);
        LockMode[] taken = new LockMode[order.length];
        int count = 0;
        boolean success = false;
        boolean writes = keys.containsValue(LockMode.WRITE);
        if (writes) {
            writers.incrementAndGet();
        }
        try {
            if (writes && !awaitQuietReads(deadline)) {
                timeouts.increment();
                LockKey first = Arrays.stream(order).filter(k -> keys.get(k) == LockMode.WRITE).findFirst()
                        .orElseThrow();
                LOG.debug("lock timeout after {} waiting for quiet reads to end before {}", timeout, first);
                throw new LockTimeoutException(timeout, first, LockMode.WRITE);
            }
            for (int i = 0; i < order.length; i++) {
                LockKey key = order[i];
                LockMode mode = keys.get(key);
                KeyLock rw = pin(key);
                boolean granted = false;
                try {
                    long waited = rw.lock(owner, mode, deadline, key, count == 0);
                    granted = waited >= 0;
                    if (waited > 0) {
                        int slot = KeyRole.of(order, i).ordinal() * LockMode.values().length + mode.ordinal();
                        blockedWaits[slot].increment();
                        blockedNanos[slot].add(waited);
                    }
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
                taken[count++] = mode;
            }
            success = true;
        } catch (WaitDieException e) {
            waitDies.increment();
            LOG.debug("{}", e.getMessage());
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockInterruptedException(e);
        } finally {
            waitNanos.add(System.nanoTime() - start);
            if (!success) {
                release(owner, order, taken, count);
                if (writes) {
                    writers.decrementAndGet();
                }
            }
        }
        acquisitions.increment();
        return new LockSet(this, owner, keys, order, taken, writes, dependenciesOf(order, keys));
    }

    /**
     * The compounds that released a key of {@code order} early and are not durable yet; a WRITE lock of an export
     * root (a whole export) depends on every such compound.
     */
    private List<PendingDurability> dependenciesOf(LockKey[] order, Map<LockKey, LockMode> keys) {
        if (flushing.isEmpty()) {
            return List.of();
        }
        java.util.Set<PendingDurability> found = new java.util.LinkedHashSet<>();
        for (LockKey key : order) {
            if (key.isRoot() && keys.get(key) == LockMode.WRITE) {
                found.addAll(flushing);
            }
            PendingDurability pending = unflushed.get(key);
            if (pending != null) {
                found.add(pending);
            }
        }
        found.removeIf(PendingDurability::isDone);
        dependencies.add(found.size());
        return List.copyOf(found);
    }

    /**
     * Called by {@link LockSet#releaseEarly()} before it releases: every key {@code set} holds for writing now
     * names {@code pending} until it completes; the set counts as a writer (quiet reads stay off) until then.
     */
    void releasingEarly(LockSet set, PendingDurability pending) {
        earlyReleases.increment();
        flushing.add(pending);
        List<LockKey> written = new ArrayList<>();
        set.keys().forEach((key, mode) -> {
            if (mode == LockMode.WRITE) {
                written.add(key);
                unflushed.put(key, pending);
            }
        });
        boolean writes = set.holdsWrites();
        pending.whenDone(() -> {
            written.forEach(key -> unflushed.remove(key, pending));
            flushing.remove(pending);
            if (writes) {
                writerDone();
            }
        });
    }

    /** Lock sets released early ({@link LockSet#releaseEarly()}) since the start. */
    public long earlyReleases() {
        return earlyReleases.sum();
    }

    /** Dependencies on compounds released early, found by sets taken since the start. */
    public long dependencies() {
        return dependencies.sum();
    }

    /** Compounds released early whose changes are not durable yet (tests, metrics). */
    public int flushingNow() {
        return flushing.size();
    }

    /**
     * Starts a quiet read on this thread (see the class comment): a read-only compound that takes no lock, possible
     * only while no set holds or waits for a WRITE lock. Close the returned set, on this thread, when the compound
     * ends; until then every set that wants a WRITE lock waits.
     *
     * @return an empty set that stands for the quiet read, or null when a writer is about (then take the
     *     compound's keys with {@link #acquire})
     * @throws IllegalStateException if this thread already holds an open set of this manager
     */
    public LockSet enterQuietRead() {
        LockSet current = openSet.get();
        if (current != null) {
            throw new IllegalStateException("this thread already holds a lock set of this manager: " + current);
        }
        if (writers.get() != 0) {
            return null;
        }
        quietReaders.incrementAndGet();
        if (writers.get() != 0) {
            leaveQuietRead();
            return null;
        }
        quietReads.increment();
        LockSet set = new LockSet(this, LockOwner.compound());
        openSet.set(set);
        return set;
    }

    /** Ends a quiet read; the last one in flight wakes the writers waiting for it. */
    void leaveQuietRead() {
        if (quietReaders.decrementAndGet() == 0 && writers.get() != 0) {
            synchronized (quietDrained) {
                quietDrained.notifyAll();
            }
        }
    }

    /** Called by {@link LockSet#close()} of a set that held a WRITE lock, after releasing it. */
    void writerDone() {
        writers.decrementAndGet();
    }

    /** Waits until no quiet read is in flight; false when {@code deadline} (System.nanoTime()) passed first. */
    private boolean awaitQuietReads(long deadline) throws InterruptedException {
        if (quietReaders.get() == 0) {
            return true;
        }
        synchronized (quietDrained) {
            while (quietReaders.get() != 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                // bounded, so that a notification missed for whatever reason costs a millisecond, not the timeout
                TimeUnit.NANOSECONDS.timedWait(quietDrained, Math.min(left, TimeUnit.MILLISECONDS.toNanos(1)));
            }
        }
        return true;
    }

    /** Number of quiet reads started ({@link #enterQuietRead} calls that returned a set). */
    public long quietReads() {
        return quietReads.sum();
    }

    /** The number of quiet reads in flight now. */
    public int quietReadsInFlight() {
        return quietReaders.get();
    }

    /** Number of times a set waited for a key of {@code role} that it wanted in {@code mode} (granted in the end). */
    public long blockedWaits(KeyRole role, LockMode mode) {
        return blockedWaits[role.ordinal() * LockMode.values().length + mode.ordinal()].sum();
    }

    /** Nanoseconds sets waited for keys of {@code role} wanted in {@code mode} (waits that ended in a grant). */
    public long blockedNanos(KeyRole role, LockMode mode) {
        return blockedNanos[role.ordinal() * LockMode.values().length + mode.ordinal()].sum();
    }

    private static LongAdder[] adders(int n) {
        LongAdder[] result = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            result[i] = new LongAdder();
        }
        return result;
    }

    /** Number of requests that died rather than wait for an older transaction (wait-die). */
    public long waitDies() {
        return waitDies.sum();
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
    KeyLock lockOf(LockKey key) {
        return locks.get(key);
    }

    /** Called by {@link LockSet#close()} on the owner thread after releasing. */
    void closed(LockSet set) {
        if (openSet.get() == set) {
            openSet.remove();
        }
    }

    /** Releases {@code keys[0..count)} of {@code owner} in reverse order and lets go of their keys. */
    void release(LockOwner owner, LockKey[] keys, LockMode[] modes, int count) {
        for (int i = count - 1; i >= 0; i--) {
            locks.get(keys[i]).unlock(owner, modes[i]);
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

    /** Most keys {@link #expand} makes room for at first (a compound of many keys grows its map as it goes). */
    private static final int EXPAND_CAPACITY = 64;

    /** The requested keys plus the ancestors of path keys, each once, WRITE winning over READ. */
    private static Map<LockKey, LockMode> expand(Collection<LockRequest> requests) {
        int most = 0; // every key with all its ancestors: a short compound's keys fit without a resize
        for (LockRequest request : requests) {
            Objects.requireNonNull(request, "request");
            most += request.key().depth() + 1;
        }
        Map<LockKey, LockMode> keys = new HashMap<>((int) (Math.min(most, EXPAND_CAPACITY) / 0.75f) + 1);
        for (LockRequest request : requests) {
            LockMode had = keys.put(request.key(), request.mode());
            if (had != null) {
                // there already, and with it its ancestors (each key comes in with all of them)
                keys.put(request.key(), had.strongerOf(request.mode()));
                continue;
            }
            // from the parent up, until an ancestor that is there already (a compound's paths share most of theirs)
            LockKey ancestor = request.key().parentOrNull();
            while (ancestor != null && keys.putIfAbsent(ancestor, LockMode.READ) == null) {
                ancestor = ancestor.parentOrNull();
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
