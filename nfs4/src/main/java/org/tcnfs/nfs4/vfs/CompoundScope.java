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
    /** Per thread: the compound, then the stretch (0 outside a compound). */
    private static final ThreadLocal<long[]> CURRENT = ThreadLocal.withInitial(() -> new long[2]);
    /** Per thread: what to run when the compound this thread runs ends ({@link #atEnd}). */
    private static final ThreadLocal<List<Runnable>> AT_END = ThreadLocal.withInitial(ArrayList::new);

    private CompoundScope() {
    }

    /** A number unique to the compound this thread runs now, or 0 outside a compound. */
    public static long current() {
        return CURRENT.get()[0];
    }

    /**
     * A number unique to the current stretch of operations that change nothing, or 0 outside a compound and while
     * something may change: what a file system read in one stretch is still true in it, as far as this server's
     * operations go.
     */
    public static long stretch() {
        return CURRENT.get()[1];
    }

    /** Begins a compound on this thread; returns the previous scope, for {@link #end}. */
    public static long begin() {
        long[] slot = CURRENT.get();
        long previous = slot[0];
        slot[0] = NEXT.getAndIncrement();
        slot[1] = 0;
        return previous;
    }

    /** Ends the current stretch, if any: something may change now (no stretch until {@link #endChange()}). */
    public static void beginChange() {
        CURRENT.get()[1] = 0;
    }

    /** Begins a new stretch of operations that change nothing, within the current compound (else a no-op). */
    public static void endChange() {
        long[] slot = CURRENT.get();
        if (slot[0] != 0) {
            slot[1] = NEXT.getAndIncrement();
        }
    }

    /**
     * Runs {@code release} on this thread when the compound it runs now ends (once; it must not throw). Outside a
     * compound it runs at once.
     */
    public static void atEnd(Runnable release) {
        if (current() == 0) {
            release.run();
        } else {
            AT_END.get().add(release);
        }
    }

    /**
     * Ends the compound this thread runs, going back to {@code previous} (from {@link #begin}), and runs what
     * {@link #atEnd} was given during it.
     */
    public static void end(long previous) {
        long[] slot = CURRENT.get();
        slot[0] = previous;
        // a stretch never outlives its compound: an outer scope's cached reads may be stale by now
        slot[1] = 0;
        List<Runnable> releases = AT_END.get();
        if (!releases.isEmpty()) {
            List<Runnable> now = List.copyOf(releases);
            releases.clear();
            now.forEach(Runnable::run);
        }
    }
}
