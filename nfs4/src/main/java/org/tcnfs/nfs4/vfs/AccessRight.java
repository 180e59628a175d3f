package org.tcnfs.nfs4.vfs;

/** The rights ACCESS asks about (RFC 8881 18.1), independent of their wire bits. */
public enum AccessRight {
    READ,
    LOOKUP,
    MODIFY,
    EXTEND,
    DELETE,
    EXECUTE
}
