package org.tcnfs.nfs4.xdr;

/** {@code createmode4}: how OPEN creates a file. */
public final class createmode4 {
    public static final int UNCHECKED4 = 0;
    public static final int GUARDED4 = 1;
    /** Deprecated in NFSv4.1 in favour of {@link #EXCLUSIVE4_1}, still accepted. */
    public static final int EXCLUSIVE4 = 2;
    public static final int EXCLUSIVE4_1 = 3;

    private createmode4() {
    }
}
