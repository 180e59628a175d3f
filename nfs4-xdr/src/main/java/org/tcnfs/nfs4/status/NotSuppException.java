package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_NOTSUPP} (10004). */
public final class NotSuppException extends NfsException {
    private static final long serialVersionUID = 1L;

    public NotSuppException() {
        super(NfsStatus.NOTSUPP);
    }

    public NotSuppException(String message) {
        super(NfsStatus.NOTSUPP, message);
    }

    public NotSuppException(String message, Throwable cause) {
        super(NfsStatus.NOTSUPP, message, cause);
    }
}
