package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_BAD_RANGE} (10042). */
public final class BadRangeException extends NfsException {
    private static final long serialVersionUID = 1L;

    public BadRangeException() {
        super(NfsStatus.BAD_RANGE);
    }

    public BadRangeException(String message) {
        super(NfsStatus.BAD_RANGE, message);
    }

    public BadRangeException(String message, Throwable cause) {
        super(NfsStatus.BAD_RANGE, message, cause);
    }
}
