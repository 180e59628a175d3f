package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_REP_TOO_BIG} (10066). */
public final class RepTooBigException extends NfsException {
    private static final long serialVersionUID = 1L;

    public RepTooBigException() {
        super(NfsStatus.REP_TOO_BIG);
    }

    public RepTooBigException(String message) {
        super(NfsStatus.REP_TOO_BIG, message);
    }

    public RepTooBigException(String message, Throwable cause) {
        super(NfsStatus.REP_TOO_BIG, message, cause);
    }
}
