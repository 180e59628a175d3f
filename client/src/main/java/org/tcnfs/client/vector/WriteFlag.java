package org.tcnfs.client.vector;

/** Options of a {@link VWrite}. */
public enum WriteFlag {
    /** Create the file when it is missing (OPEN4_CREATE, UNCHECKED4); else it must exist. */
    CREATE,
    /** Fail with NFS4ERR_EXIST when the file exists (GUARDED4); implies {@link #CREATE}. */
    EXCLUSIVE,
    /** Cut the file to length zero before writing. */
    TRUNCATE,
    /**
     * Write at the file's end: the client reads the sizes first (one compound for all appends of a call), then
     * the compound checks the size is still that one (VERIFY) before it writes, so a concurrent change makes the
     * item fail with NFS4ERR_NOT_SAME instead of overwriting.
     */
    APPEND
}
