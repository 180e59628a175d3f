package org.tcnfs.server.fs;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * What the file system read about objects (a handle resolved on the disk: its table row, path and {@code lstat}; what
 * a LOOKUP found under a name in a directory) during the current stretch of a compound's operations that change nothing
 * ({@link org.tcnfs.nfs4.vfs.CompoundScope#stretch()}), so that a LOOKUP chain, the LOOKUPs of 64 entries of one
 * directory or the directory a REMOVE's LOOKUP chain ends in is not resolved again for every operation. The
 * compound engine ends a stretch before and after every operation that may change something, except past a change
 * the file system confines to some objects (a plain compound's REMOVE: its directory and its victim), whose answers
 * it first drops or reads again ({@link #revise}, {@link org.tcnfs.nfs4.vfs.CompoundScope#suspend()}): so an answer
 * never serves past a change the compound makes to its object. The next compound reads again, so a change made beside
 * the server is seen by the next compound exactly as without this cache.
 *
 * <p>A directory removed or renamed by any compound ({@code epoch}, the {@link VerifiedDirectories} epoch) drops
 * every thread's answers, as it does for the symbolic-link checks. Each thread keeps the answers of its current
 * stretch only, at most {@code maxEntries} (emptied when full); outside a compound (stretch 0) nothing is kept.
 * Thread-safe.
 *
 * @param <K> the key (a handle, or a name in a directory)
 * @param <V> what was read
 */
final class StretchCache<K, V> {
    private final int maxEntries;
    private final LongSupplier epoch;
    private final ThreadLocal<Scope<K, V>> scopes = ThreadLocal.withInitial(Scope::new);

    /** One thread's answers: for stretch {@code stretch}, at epoch {@code epoch}. */
    private static final class Scope<K, V> {
        long stretch;
        long epoch;
        final Map<K, V> read = new HashMap<>();
    }

    /**
     * @param maxEntries most answers one stretch keeps
     * @param epoch the epoch of directory removals and renames; an answer read before it moved is dropped
     */
    StretchCache(int maxEntries, LongSupplier epoch) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries " + maxEntries);
        }
        this.maxEntries = maxEntries;
        this.epoch = epoch;
    }

    /** What stretch {@code stretch} (0: none) read for {@code key}, or {@code null}. */
    V get(long stretch, K key) {
        if (stretch == 0) {
            return null;
        }
        Scope<K, V> scope = scopes.get();
        if (scope.stretch != stretch || scope.epoch != epoch.getAsLong()) {
            return null;
        }
        return scope.read.get(key);
    }

    /**
     * Revises what stretch {@code stretch} read past a change the file system confines to some objects
     * ({@link org.tcnfs.nfs4.vfs.CompoundScope#suspend()}), so that the stretch may go on past the change: each answer
     * becomes what {@code revision} makes of it, the same answer for an object the change did not touch, a renewed one
     * for an object read again after it, {@code null} (dropped) for one it touched otherwise.
     */
    void revise(long stretch, UnaryOperator<V> revision) {
        Scope<K, V> scope = scopes.get();
        if (scope.stretch != stretch) {
            return;
        }
        for (Iterator<Map.Entry<K, V>> answers = scope.read.entrySet().iterator(); answers.hasNext(); ) {
            Map.Entry<K, V> answer = answers.next();
            V revised = revision.apply(answer.getValue());
            if (revised == null) {
                answers.remove();
            } else if (revised != answer.getValue()) {
                answer.setValue(revised);
            }
        }
    }

    /**
     * Keeps {@code value} for {@code key} in stretch {@code stretch}, read by a resolution that began at epoch
     * {@code epochBefore}; nothing when the epoch moved meanwhile.
     */
    void put(long stretch, K key, V value, long epochBefore) {
        if (stretch == 0 || epoch.getAsLong() != epochBefore) {
            return;
        }
        Scope<K, V> scope = scopes.get();
        if (scope.stretch != stretch || scope.epoch != epochBefore || scope.read.size() >= maxEntries) {
            scope.read.clear();
            scope.stretch = stretch;
            scope.epoch = epochBefore;
        }
        scope.read.put(key, value);
    }
}
