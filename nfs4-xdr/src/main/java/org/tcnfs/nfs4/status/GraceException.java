package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_GRACE} (10013). */
public final class GraceException extends NfsException {
    private static final long serialVersionUID = 1L;

    public GraceException() {
        super(NfsStatus.GRACE);
    }

    public GraceException(String message) {
        super(NfsStatus.GRACE, message);
    }

    public GraceException(String message, Throwable cause) {
        super(NfsStatus.GRACE, message, cause);
    }
}
