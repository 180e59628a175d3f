package org.tcnfs.txn.handles;

import java.io.IOException;

/**
 * The failures of syncs that all run although one failed: the first is thrown once the last has ended, the later
 * ones ride along as suppressed exceptions, so a log line shows every directory or file that could not be made
 * durable. Not thread-safe: one collector per caller.
 */
final class SyncFailures {
    private IOException first;

    /** Runs {@code sync} and keeps its failure. */
    void run(FsyncPool.Sync sync) {
        try {
            sync.run();
        } catch (IOException e) {
            add(e);
        }
    }

    /** Keeps {@code failure}: the first one, or suppressed by the first. */
    void add(IOException failure) {
        if (first == null) {
            first = failure;
        } else if (failure != first) {
            first.addSuppressed(failure);
        }
    }

    /** Throws the first failure kept, if any. */
    void throwIfAny() throws IOException {
        if (first != null) {
            throw first;
        }
    }
}
