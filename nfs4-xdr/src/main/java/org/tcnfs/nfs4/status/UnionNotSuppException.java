package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_UNION_NOTSUPP} (10090). */
public final class UnionNotSuppException extends NfsException {
    private static final long serialVersionUID = 1L;

    public UnionNotSuppException() {
        super(NfsStatus.UNION_NOTSUPP);
    }

    public UnionNotSuppException(String message) {
        super(NfsStatus.UNION_NOTSUPP, message);
    }

    public UnionNotSuppException(String message, Throwable cause) {
        super(NfsStatus.UNION_NOTSUPP, message, cause);
    }
}
