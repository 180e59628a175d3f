package org.tcnfs.nfs4.xdr;

/** {@code channel_dir_from_client4}: the channels BIND_CONN_TO_SESSION asks to bind a connection to. */
public final class channel_dir_from_client4 {
    public static final int CDFC4_FORE = 0x1;
    public static final int CDFC4_BACK = 0x2;
    public static final int CDFC4_FORE_OR_BOTH = 0x3;
    public static final int CDFC4_BACK_OR_BOTH = 0x7;

    private channel_dir_from_client4() {
    }
}
