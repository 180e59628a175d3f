package org.tcnfs.proto;

/** How a transaction holds a lock key. */
public enum LockMode {
    /** Shared: others may read the object too. */
    READ,
    /** Exclusive: the transaction changes the object or name. */
    WRITE
}
