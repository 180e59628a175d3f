package org.tcnfs.nfs4.xdr;

/** {@code secinfo_style4}: what SECINFO_NO_NAME asks about. */
public final class secinfo_style4 {
    /** The object of the current file handle. */
    public static final int SECINFO_STYLE4_CURRENT_FH = 0;
    /** The parent directory of the current file handle. */
    public static final int SECINFO_STYLE4_PARENT = 1;

    private secinfo_style4() {
    }
}
