package org.tcnfs.nfs4.xdr;

/** {@code opentype4}: whether OPEN may create the file. */
public final class opentype4 {
    public static final int OPEN4_NOCREATE = 0;
    public static final int OPEN4_CREATE = 1;

    private opentype4() {
    }
}
