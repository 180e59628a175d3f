package org.tcnfs.nfs4.xdr;

/** {@code channel_dir_from_server4}: the channels BIND_CONN_TO_SESSION bound a connection to. */
public final class channel_dir_from_server4 {
    public static final int CDFS4_FORE = 0x1;
    public static final int CDFS4_BACK = 0x2;
    public static final int CDFS4_BOTH = 0x3;

    private channel_dir_from_server4() {
    }
}
