package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_NO_GRACE} (10033). */
public final class NoGraceException extends NfsException {
    private static final long serialVersionUID = 1L;

    public NoGraceException() {
        super(NfsStatus.NO_GRACE);
    }

    public NoGraceException(String message) {
        super(NfsStatus.NO_GRACE, message);
    }

    public NoGraceException(String message, Throwable cause) {
        super(NfsStatus.NO_GRACE, message, cause);
    }
}
