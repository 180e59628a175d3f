package org.tcnfs.txn.lock;

import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The locks one compound holds, from {@link LockManager#acquire} until {@link #close()}.
 *
 * <p>A single compound's set must be closed on the thread that acquired it: closing from another thread
 * throws {@link IllegalStateException} and releases nothing. The set of a transaction that spans compounds
 * ({@link LockManager#acquireFor}) may be closed on any thread. {@link #close()} releases the locks in the reverse order of their acquisition;
 * closing again is harmless. Not thread-safe: one thread owns it.
 */
public final class LockSet implements AutoCloseable {
    private final LockManager manager;
    private final LockOwner owner;
    private final Map<LockKey, LockMode> keys;
    private final LockKey[] lockedKeys;
    private final LockMode[] locks;
    private SortedMap<LockKey, LockMode> sorted;
    /** Whether it holds a WRITE lock (the manager counts such sets until they close). */
    private final boolean writes;
    /** Whether it stands for a quiet read ({@link LockManager#enterQuietRead()}): no key, no writer about. */
    private final boolean quiet;
    /** Compounds that released a key of this set early and were not durable when it was taken. */
    private final List<PendingDurability> dependencies;
    private volatile boolean open = true;

    /** {@code lockedKeys[i]} was taken in mode {@code locks[i]}, in the order they were taken. */
    LockSet(LockManager manager, LockOwner owner, Map<LockKey, LockMode> keys, LockKey[] lockedKeys,
            LockMode[] locks, boolean writes, List<PendingDurability> dependencies) {
        this.dependencies = dependencies;
        this.manager = manager;
        this.owner = owner;
        this.keys = keys;
        this.lockedKeys = lockedKeys;
        this.locks = locks;
        this.writes = writes;
        this.quiet = false;
    }

    /** The set of a quiet read: no keys. */
    LockSet(LockManager manager, LockOwner owner) {
        this.manager = manager;
        this.owner = owner;
        this.keys = Map.of();
        this.lockedKeys = new LockKey[0];
        this.locks = new LockMode[0];
        this.writes = false;
        this.quiet = true;
        this.dependencies = List.of();
    }

    /**
     * Whether this set stands for a quiet read ({@link LockManager#enterQuietRead()}): it holds no key, and while
     * it is open no set holds a WRITE lock.
     */
    public boolean isQuiet() {
        return quiet;
    }

    /**
     * Every key this set covers with its mode: the requested keys and their ancestors, merged (a key
     * requested for writing stays WRITE even when it is also another key's ancestor), in key order,
     * which is the order they were locked in.
     */
    public SortedMap<LockKey, LockMode> keys() {
        if (sorted == null) {
            sorted = Collections.unmodifiableSortedMap(new TreeMap<>(keys));
        }
        return sorted;
    }

    /**
     * Whether this set covers {@code key} in {@code mode} or stronger: a set with {@code key} in WRITE
     * holds it for READ too. False once closed.
     */
    public boolean holds(LockKey key, LockMode mode) {
        LockMode held = keys.get(key);
        return open && held != null && held.strongerOf(mode) == held;
    }

    /** The number of locks this set holds, one per key of {@link #keys()}; 0 once closed. */
    public int locksHeld() {
        return open ? locks.length : 0;
    }

    /** Whether the locks are still held. */
    public boolean isOpen() {
        return open;
    }

    /**
     * The thread that acquired this single compound's set, and the only one that may close it; null for a set
     * of a transaction that spans compounds.
     */
    public Thread owner() {
        return owner.thread();
    }

    /** Who holds the locks. */
    public LockOwner lockOwner() {
        return owner;
    }

    /**
     * Releases every lock, in reverse order of acquisition. Harmless when already closed.
     *
     * @throws IllegalStateException if called on a thread other than {@link #owner()}; nothing is released
     */
    @Override
    public void close() {
        if (!open) {
            return;
        }
        if (owner.thread() != null && Thread.currentThread() != owner.thread()) {
            throw new IllegalStateException("a lock set must be closed by the thread that acquired it ("
                    + owner.thread().getName() + "), not by " + Thread.currentThread().getName());
        }
        open = false;
        manager.release(owner, lockedKeys, locks, locks.length);
        if (quiet) {
            manager.leaveQuietRead();
        } else if (writes) {
            manager.writerDone();
        }
        manager.closed(this);
    }

    /** Whether it holds a WRITE lock. */
    public boolean holdsWrites() {
        return writes;
    }

    /**
     * The compounds that {@linkplain #releaseEarly() released} a key of this set early and were not durable yet
     * when this set took it (for a WRITE lock of an export root: every such compound). What this set's compound
     * reads or changes may rest on their changes, so it must not reply (nor reach a commit point) before they are
     * durable: {@link #awaitDependencies()}.
     */
    public List<PendingDurability> dependencies() {
        return dependencies;
    }

    /**
     * Waits until every {@linkplain #dependencies() dependency} is durable.
     *
     * @throws IOException when one of them could not be made durable
     */
    public void awaitDependencies() throws IOException {
        for (PendingDurability d : dependencies) {
            d.await();
        }
    }

    /**
     * Early lock release: releases every lock now, while this compound's changes are not durable yet. Until the
     * returned {@link PendingDurability} is {@linkplain PendingDurability#complete completed} (after this
     * compound's changes are durable <em>and</em> its own {@linkplain #dependencies() dependencies} completed),
     * every set that takes a key this one held for writing depends on it, and no quiet read starts. The caller
     * must complete it, also when making its changes durable fails.
     *
     * @throws IllegalStateException if closed already, a quiet read, a transaction that spans compounds, or called
     *     on a thread other than {@link #owner()}
     */
    public PendingDurability releaseEarly() {
        if (!open || quiet || owner.spansCompounds()) {
            throw new IllegalStateException("only an open set of a single compound releases early: " + this);
        }
        if (Thread.currentThread() != owner.thread()) {
            throw new IllegalStateException("a lock set must be released by the thread that acquired it");
        }
        PendingDurability pending = new PendingDurability();
        manager.releasingEarly(this, pending);
        open = false;
        manager.release(owner, lockedKeys, locks, locks.length);
        manager.closed(this);
        return pending;
    }

    @Override
    public String toString() {
        return "LockSet" + (open ? "" : "(closed)") + keys();
    }
}
