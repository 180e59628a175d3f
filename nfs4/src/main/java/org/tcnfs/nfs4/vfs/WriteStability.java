package org.tcnfs.nfs4.vfs;

/** How durable a WRITE must be before it is answered ({@code stable_how4}), weakest first. */
public enum WriteStability {
    UNSTABLE,
    DATA_SYNC,
    FILE_SYNC
}
