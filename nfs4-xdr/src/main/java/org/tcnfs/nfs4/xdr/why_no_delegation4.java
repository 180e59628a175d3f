package org.tcnfs.nfs4.xdr;

/** {@code why_no_delegation4}: why an NFSv4.1 OPEN granted no delegation. */
public final class why_no_delegation4 {
    public static final int WND4_NOT_WANTED = 0;
    public static final int WND4_CONTENTION = 1;
    public static final int WND4_RESOURCE = 2;
    public static final int WND4_NOT_SUPP_FTYPE = 3;
    public static final int WND4_WRITE_DELEG_NOT_SUPP_FTYPE = 4;
    public static final int WND4_NOT_SUPP_UPGRADE = 5;
    public static final int WND4_NOT_SUPP_DOWNGRADE = 6;
    public static final int WND4_CANCELLED = 7;
    public static final int WND4_IS_DIR = 8;

    private why_no_delegation4() {
    }
}
