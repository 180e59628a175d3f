package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_STALE_STATEID} (10023). */
public final class StaleStateIdException extends NfsException {
    private static final long serialVersionUID = 1L;

    public StaleStateIdException() {
        super(NfsStatus.STALE_STATEID);
    }

    public StaleStateIdException(String message) {
        super(NfsStatus.STALE_STATEID, message);
    }

    public StaleStateIdException(String message, Throwable cause) {
        super(NfsStatus.STALE_STATEID, message, cause);
    }
}
