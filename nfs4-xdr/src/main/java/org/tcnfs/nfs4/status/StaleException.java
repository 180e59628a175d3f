package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_STALE} (70). */
public final class StaleException extends NfsException {
    private static final long serialVersionUID = 1L;

    public StaleException() {
        super(NfsStatus.STALE);
    }

    public StaleException(String message) {
        super(NfsStatus.STALE, message);
    }

    public StaleException(String message, Throwable cause) {
        super(NfsStatus.STALE, message, cause);
    }
}
