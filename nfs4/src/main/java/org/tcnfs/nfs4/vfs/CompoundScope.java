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
 * <p>A stretch may outlive a change that did not touch what it read (issue 16: a plain rm -rf, where every REMOVE
 * otherwise made the next LOOKUP chain resolve the export root again, and the REMOVE its directory). Two promises
 * make it so, each by the one who can keep it: the engine {@linkplain #offer offers} the stretch that ended before an
 * operation's hooks when every hook said its work around that operation changes nothing (a plain compound, whose
 * locks are held from its start; a transaction's REMOVE, whose undo was prepared before its first operation and
 * whose victim the removal itself moves into the backup directory); an operation that does nothing before its own change takes it up
 * ({@link #continueOffered()}). A file system whose change drops from its caches what the change touched
 * {@linkplain #suspend() suspends} the stretch instead of ending it, and the engine {@linkplain #resume() resumes} it
 * after the operation when it offered one. Every {@link #beginChange()} and {@link #endChange()} cancels both, so a
 * caller that does not know these promises never continues a stretch.
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
        /** Whether the compound may look a name up twice in one directory ({@link #begin(boolean)}). */
        boolean namesMayRepeat;
        /** The stretch the engine offers the operation about to run ({@link #offer}), else 0. */
        long offered;
        /** The stretch a change confined to what its maker dropped from its caches ended ({@link #suspend}), else 0. */
        long suspended;
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

    /**
     * Whether the compound this thread runs may look the same name up in the same directory more than once (its
     * operations say so, {@link #begin(boolean)}): only then is it worth keeping what a LOOKUP found by name for the
     * rest of the stretch. False outside a compound.
     */
    public static boolean namesMayRepeat() {
        Slot slot = CURRENT.get();
        return slot.compound != 0 && slot.namesMayRepeat;
    }

    /**
     * Begins a compound on this thread that may look a name up more than once ({@link #begin(boolean)} with
     * {@code true}); returns the previous scope, for {@link #end}.
     */
    public static long begin() {
        return begin(true);
    }

    /**
     * Begins a compound on this thread; returns the previous scope, for {@link #end}.
     *
     * @param namesMayRepeat whether the compound may look the same name up in the same directory twice (a file system
     *     keeps what a LOOKUP found by name only then, {@link #namesMayRepeat()}); true is always correct
     */
    public static long begin(boolean namesMayRepeat) {
        Slot slot = CURRENT.get();
        long previous = slot.compound;
        slot.compound = NEXT.getAndIncrement();
        slot.namesMayRepeat = namesMayRepeat;
        slot.stretch = 0;
        slot.offered = 0;
        slot.suspended = 0;
        return previous;
    }

    /** Ends the current stretch, if any: something may change now (no stretch until {@link #endChange()}). */
    public static void beginChange() {
        Slot slot = CURRENT.get();
        slot.stretch = 0;
        slot.offered = 0;
        slot.suspended = 0;
    }

    /** Begins a new stretch of operations that change nothing, within the current compound (else a no-op). */
    public static void endChange() {
        Slot slot = CURRENT.get();
        slot.offered = 0;
        slot.suspended = 0;
        if (slot.compound != 0) {
            slot.stretch = NEXT.getAndIncrement();
        }
    }

    /**
     * For the compound engine, after the hooks before an operation that may change something, while no stretch
     * runs: {@code stretch}, the one that ended before those hooks, is still true as far as they and the hooks after
     * the operation go (they change nothing), so the operation may continue it ({@link #continueOffered()}) and the
     * engine may resume it after the operation ({@link #resume()}). Ignored for stretch 0.
     */
    public static void offer(long stretch) {
        Slot slot = CURRENT.get();
        slot.offered = slot.compound != 0 && slot.stretch == 0 ? stretch : 0;
        slot.suspended = 0;
    }

    /**
     * For an operation that reads before its change and has changed nothing yet: continues the stretch the engine
     * offered ({@link #offer}), else begins a new one as {@link #endChange()} does.
     */
    public static void continueOffered() {
        Slot slot = CURRENT.get();
        long offered = slot.offered;
        if (offered != 0 && slot.stretch == 0) {
            slot.offered = 0;
            slot.suspended = 0;
            slot.stretch = offered;
        } else {
            endChange();
        }
    }

    /**
     * For a file system, when a change begins that it confines to objects whose answers it drops from (or renews in)
     * its caches of the current stretch before {@link #resume()}: ends the stretch as {@link #beginChange()} does, but
     * keeps it for {@link #resume()}. Nothing is kept outside a stretch.
     */
    public static void suspend() {
        Slot slot = CURRENT.get();
        slot.offered = 0;
        slot.suspended = slot.stretch;
        slot.stretch = 0;
    }

    /**
     * For the compound engine, after an operation it {@linkplain #offer offered} a stretch: resumes the stretch a
     * file system {@linkplain #suspend() suspended}, if nothing began or ended a change since, else begins a new one
     * as {@link #endChange()} does.
     */
    public static void resume() {
        Slot slot = CURRENT.get();
        long suspended = slot.suspended;
        if (suspended != 0 && slot.stretch == 0 && slot.compound != 0) {
            slot.offered = 0;
            slot.suspended = 0;
            slot.stretch = suspended;
        } else {
            endChange();
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
        // an outer scope (tests nest them) may look names up again: the conservative answer
        slot.namesMayRepeat = true;
        // a stretch never outlives its compound: an outer scope's cached reads may be stale by now
        slot.stretch = 0;
        slot.offered = 0;
        slot.suspended = 0;
        List<Runnable> releases = slot.atEnd;
        if (!releases.isEmpty()) {
            List<Runnable> now = List.copyOf(releases);
            releases.clear();
            now.forEach(Runnable::run);
        }
    }
}
