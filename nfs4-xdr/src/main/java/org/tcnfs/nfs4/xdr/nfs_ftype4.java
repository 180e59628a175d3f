package org.tcnfs.nfs4.xdr;

/** {@code nfs_ftype4}: the object types of the {@code type} attribute and of CREATE (RFC 8881 3.3.1). */
public final class nfs_ftype4 {
    public static final int NF4REG = 1;
    public static final int NF4DIR = 2;
    public static final int NF4BLK = 3;
    public static final int NF4CHR = 4;
    public static final int NF4LNK = 5;
    public static final int NF4SOCK = 6;
    public static final int NF4FIFO = 7;
    public static final int NF4ATTRDIR = 8;
    public static final int NF4NAMEDATTR = 9;

    private nfs_ftype4() {
    }
}
