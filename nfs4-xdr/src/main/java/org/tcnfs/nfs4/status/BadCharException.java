package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_BADCHAR} (10040). */
public final class BadCharException extends NfsException {
    private static final long serialVersionUID = 1L;

    public BadCharException() {
        super(NfsStatus.BADCHAR);
    }

    public BadCharException(String message) {
        super(NfsStatus.BADCHAR, message);
    }

    public BadCharException(String message, Throwable cause) {
        super(NfsStatus.BADCHAR, message, cause);
    }
}
