package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_FBIG} (27). */
public final class FBigException extends NfsException {
    private static final long serialVersionUID = 1L;

    public FBigException() {
        super(NfsStatus.FBIG);
    }

    public FBigException(String message) {
        super(NfsStatus.FBIG, message);
    }

    public FBigException(String message, Throwable cause) {
        super(NfsStatus.FBIG, message, cause);
    }
}
