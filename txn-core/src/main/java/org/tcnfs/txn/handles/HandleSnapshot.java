package org.tcnfs.txn.handles;


/**
 * A consistent read-only view of the handle table (one LMDB read transaction). Close it promptly: an open
 * snapshot holds a reader slot and keeps old pages from being reused. Not thread-safe, but it may be
 * closed on another thread than the one that opened it.
 */
public final class HandleSnapshot extends AbstractView implements AutoCloseable {
    private final Runnable ending;
    private boolean closed;

    HandleSnapshot(HandleTable table, Store store, Runnable ending, long cacheEpoch) {
        super(table, store, cacheEpoch);
        this.ending = ending;
    }

    @Override
    void checkUsable() {
        if (closed) {
            throw new IllegalStateException("snapshot is closed");
        }
    }

    /** Ends the read transaction; calling it again does nothing. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            ending.run();
        }
    }
}
