package org.tcnfs.nfs4.rpc;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Who runs inline on the network threads now ({@link InlineCompounds}): any number of compounds that only read, or
 * one that changes, never both. Only tried, never waited for: a compound that does not get its turn goes to a worker.
 * So an inline change never waits for a lock of an inline compound on the other network thread, nor an inline read
 * for an inline change's WRITE lock.
 */
final class InlineTurns {
    private static final int CHANGING = -1;

    /** Inline readers now, or {@link #CHANGING}. */
    private final AtomicInteger running = new AtomicInteger();

    /** Takes a reader's turn unless a change runs inline; {@link #endRead} after, if true. */
    boolean tryRead() {
        int now;
        do {
            now = running.get();
            if (now == CHANGING) {
                return false;
            }
        } while (!running.compareAndSet(now, now + 1));
        return true;
    }

    void endRead() {
        running.decrementAndGet();
    }

    /** Takes the one change's turn if no compound runs inline; {@link #endChange} after, if true. */
    boolean tryChange() {
        return running.compareAndSet(0, CHANGING);
    }

    void endChange() {
        running.set(0);
    }
}
