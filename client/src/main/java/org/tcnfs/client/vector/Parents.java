package org.tcnfs.client.vector;

/** Whether {@link VnfsClient#vmkdir} creates missing parents (as {@code mkdir -p}). */
public enum Parents {
    /** Parents must exist; an existing target is NFS4ERR_EXIST. */
    REQUIRE,
    /** Missing parents are created; an existing directory is fine. */
    CREATE
}
