package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_EXPIRED} (10011). */
public final class ExpiredException extends NfsException {
    private static final long serialVersionUID = 1L;

    public ExpiredException() {
        super(NfsStatus.EXPIRED);
    }

    public ExpiredException(String message) {
        super(NfsStatus.EXPIRED, message);
    }

    public ExpiredException(String message, Throwable cause) {
        super(NfsStatus.EXPIRED, message, cause);
    }
}
