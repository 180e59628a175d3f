package org.tcnfs.nfs4.vfs;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which COMPOUND the current thread is running, for a file system's caches that must not outlive one compound
 * (a check on the disk made once per compound instead of once per operation). The compound engine opens a
 * scope around each compound; outside one, {@link #current()} is 0 and nothing may be cached.
 *
 * <p>Within a compound, a <em>stretch</em> is a run of operations that change nothing ({@link #stretch()}): the
 * engine ends it ({@link #beginChange()}: no stretch, nothing may be cached) before the hooks and the execution of
 * every operation that may change an object or an attribute, and before the first operation's hooks (which plan
 * the compound and may prepare backups) and the compound's end, and begins a new one ({@link #endChange()}) when
 * such a change is over. So a cache of what the file system read (a resolved handle and its {@code lstat}) serves
 * the rest of its stretch, never across a change this server makes, nor within one.
 *
 * <p>A file system that holds something for the length of a compound (a directory's descriptor) has it released
 * when the compound ends ({@link #atEnd}).
 *
 * <p>Each thread has its own scope; a compound's operations run on the thread that began it.
 */
public final class CompoundScope {
    private static final AtomicLong NEXT = new AtomicLong(1);
    /** Per thread, one object for its whole life (one thread-local lookup per call). */
    private static final ThreadLocal<Slot> CURRENT = ThreadLocal.withInitial(Slot::new);

    /** One thread's scope; used by that thread only. */
    private static final class Slot {
        /** The compound (0 outside one). */
        long compound;
        /** The stretch (0 outside one). */
        long stretch;
        /** What to run when the compound ends ({@link #atEnd}). */
        final List<Runnable> atEnd = new ArrayList<>();
    }

    private CompoundScope() {
    }

    /** A number unique to the compound this thread runs now, or 0 outside a compound. */
    public static long current() {
        return CURRENT.get().compound;
    }

    /**
     * A number unique to the current stretch of operations that change nothing, or 0 outside a compound and while
     * something may change: what a file system read in one stretch is still true in it, as far as this server's
     * operations go.
     */
    public static long stretch() {
        return CURRENT.get().stretch;
    }

    /** Begins a compound on this thread; returns the previous scope, for {@link #end}. */
    public static long begin() {
        Slot slot = CURRENT.get();
        long previous = slot.compound;
        slot.compound = NEXT.getAndIncrement();
        slot.stretch = 0;
        return previous;
    }

    /** Ends the current stretch, if any: something may change now (no stretch until {@link #endChange()}). */
    public static void beginChange() {
        CURRENT.get().stretch = 0;
    }

    /** Begins a new stretch of operations that change nothing, within the current compound (else a no-op). */
    public static void endChange() {
        Slot slot = CURRENT.get();
        if (slot.compound != 0) {
            slot.stretch = NEXT.getAndIncrement();
        }
    }

    /**
     * Runs {@code release} on this thread when the compound it runs now ends (once; it must not throw). Outside a
     * compound it runs at once.
     */
    public static void atEnd(Runnable release) {
        Slot slot = CURRENT.get();
        if (slot.compound == 0) {
            release.run();
        } else {
            slot.atEnd.add(release);
        }
    }

    /**
     * Ends the compound this thread runs, going back to {@code previous} (from {@link #begin}), and runs what
     * {@link #atEnd} was given during it.
     */
    public static void end(long previous) {
        Slot slot = CURRENT.get();
        slot.compound = previous;
        // a stretch never outlives its compound: an outer scope's cached reads may be stale by now
        slot.stretch = 0;
        List<Runnable> releases = slot.atEnd;
        if (!releases.isEmpty()) {
            List<Runnable> now = List.copyOf(releases);
            releases.clear();
            now.forEach(Runnable::run);
        }
    }
}
