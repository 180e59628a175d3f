package org.tcnfs.client.vector;

/**
 * Told after every compound a vectorized call sent, with how many of the call's items that compound finished
 * (succeeded or failed), so a caller can draw progress. Called on the calling thread; must not block.
 */
@FunctionalInterface
public interface ProgressListener {
    /** A listener that ignores everything. */
    ProgressListener NONE = items -> { };

    void itemsDone(int items);
}
