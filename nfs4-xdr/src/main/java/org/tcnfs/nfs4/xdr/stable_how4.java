package org.tcnfs.nfs4.xdr;

/** {@code stable_how4}: how durable a WRITE must be before it is answered (RFC 8881 18.32). */
public final class stable_how4 {
    public static final int UNSTABLE4 = 0;
    public static final int DATA_SYNC4 = 1;
    public static final int FILE_SYNC4 = 2;

    private stable_how4() {
    }
}
