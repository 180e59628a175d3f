package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_STALE_CLIENTID} (10022). */
public final class StaleClientIdException extends NfsException {
    private static final long serialVersionUID = 1L;

    public StaleClientIdException() {
        super(NfsStatus.STALE_CLIENTID);
    }

    public StaleClientIdException(String message) {
        super(NfsStatus.STALE_CLIENTID, message);
    }

    public StaleClientIdException(String message, Throwable cause) {
        super(NfsStatus.STALE_CLIENTID, message, cause);
    }
}
