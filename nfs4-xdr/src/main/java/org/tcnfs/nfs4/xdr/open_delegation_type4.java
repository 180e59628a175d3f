package org.tcnfs.nfs4.xdr;

/** {@code open_delegation_type4}: the delegation an OPEN grants. */
public final class open_delegation_type4 {
    public static final int OPEN_DELEGATE_NONE = 0;
    public static final int OPEN_DELEGATE_READ = 1;
    public static final int OPEN_DELEGATE_WRITE = 2;
    /** NFSv4.1: no delegation, with the reason. */
    public static final int OPEN_DELEGATE_NONE_EXT = 3;

    private open_delegation_type4() {
    }
}
