package org.tcnfs.txn.lock;

/** How a key is locked: shared ({@link #READ}) or exclusive ({@link #WRITE}). */
public enum LockMode {
    /** Shared: any number of readers of a key hold it together. */
    READ,
    /** Exclusive: excludes every other holder of the key, reader or writer. */
    WRITE;

    /** The stronger of this mode and {@code other}: {@link #WRITE} if either is. */
    public LockMode strongerOf(LockMode other) {
        return this == WRITE || other == WRITE ? WRITE : READ;
    }
}
