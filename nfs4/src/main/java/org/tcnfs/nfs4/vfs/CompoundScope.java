package org.tcnfs.nfs4.vfs;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Which COMPOUND the current thread is running, for a file system's caches that must not outlive one compound
 * (a check on the disk made once per compound instead of once per operation). The compound engine opens a
 * scope around each compound; outside one, {@link #current()} is 0 and nothing may be cached.
 *
 * <p>Each thread has its own scope; a compound's operations run on the thread that began it.
 */
public final class CompoundScope {
    private static final AtomicLong NEXT = new AtomicLong(1);
    private static final ThreadLocal<long[]> CURRENT = ThreadLocal.withInitial(() -> new long[1]);

    private CompoundScope() {
    }

    /** A number unique to the compound this thread runs now, or 0 outside a compound. */
    public static long current() {
        return CURRENT.get()[0];
    }

    /** Begins a compound on this thread; returns the previous scope, for {@link #end}. */
    public static long begin() {
        long[] slot = CURRENT.get();
        long previous = slot[0];
        slot[0] = NEXT.getAndIncrement();
        return previous;
    }

    /** Ends the compound this thread runs, going back to {@code previous} (from {@link #begin}). */
    public static void end(long previous) {
        CURRENT.get()[0] = previous;
    }
}
