package org.tcnfs.nfs4.xdr;

/** {@code nfs_lock_type4}: byte-range lock types; the {@code W} variants ask the server to block. */
public final class nfs_lock_type4 {
    public static final int READ_LT = 1;
    public static final int WRITE_LT = 2;
    public static final int READW_LT = 3;
    public static final int WRITEW_LT = 4;

    private nfs_lock_type4() {
    }
}
