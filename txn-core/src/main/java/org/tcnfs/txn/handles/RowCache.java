package org.tcnfs.txn.handles;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What reads of the handle table's committed rows answered, across compounds and threads, for as long as the table
 * does not change ({@link HandleTable#cachedRead}): the whole cache belongs to one change count ({@link
 * HandleTable#committedChangeCount()}) and answers only a reader that finds the table at that same count. A reader
 * takes the count before it reads (none is given while a change is under way; a thread whose buffer holds rows of its
 * own reads the same count but keeps only what it read from the committed rows alone), reads, and keeps its answer
 * only if no change started since ({@link HandleTable#unchangedSince}): so every answer kept is what the table held at
 * that count. Any change of the table (an LMDB commit, pending rows kept, a row removal queued or done) moves the
 * count, and the first answer kept under the new count drops every older one. Nothing here replaces a look at the
 * disk: a caller that serves a file system still {@code statx}es what a row names, so a change made beside the server
 * is found as before.
 *
 * <p>Bounded: at most {@code maxEntries} answers; when full it is emptied and fills again (a read-mostly phase, a
 * walk or a listing, touches a few thousand rows at a time). Values are immutable. Thread-safe.
 */
final class RowCache {
    private final int maxEntries;
    private volatile Generation current = new Generation(-1);

    /** The answers kept under one change count. */
    private static final class Generation {
        final long count;
        final ConcurrentHashMap<Object, Object> answers = new ConcurrentHashMap<>();
        final AtomicInteger size = new AtomicInteger();

        Generation(long count) {
            this.count = count;
        }
    }

    /** @param maxEntries most answers kept */
    RowCache(int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries " + maxEntries);
        }
        this.maxEntries = maxEntries;
    }

    /** The answer kept for {@code key} under change count {@code count}, or {@code null} (always for -1). */
    Object get(long count, Object key) {
        Generation generation = current;
        return count >= 0 && generation.count == count ? generation.answers.get(key) : null;
    }

    /**
     * Keeps {@code answer} for {@code key}, read while the table stood at change count {@code count} from start to
     * end; an answer of an older count than the one kept is dropped.
     */
    void put(long count, Object key, Object answer) {
        if (count < 0) {
            return;
        }
        Generation generation = current;
        if (generation.count > count) {
            return;
        }
        if (generation.count < count || generation.size.get() >= maxEntries) {
            generation = new Generation(count);
            current = generation;
        }
        if (generation.answers.putIfAbsent(key, answer) == null) {
            generation.size.incrementAndGet();
        }
    }

    /**
     * Replaces {@code old}, the answer kept for {@code key} under change count {@code count}, by {@code answer} (the
     * same answer with more known about it); nothing if another is kept by now or the count moved.
     */
    void replace(long count, Object key, Object old, Object answer) {
        Generation generation = current;
        if (count >= 0 && generation.count == count) {
            generation.answers.replace(key, old, answer);
        }
    }

    /** How many answers are kept (tests). */
    int size() {
        return current.size.get();
    }
}
