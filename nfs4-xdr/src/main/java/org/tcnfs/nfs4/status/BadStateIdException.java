package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_BAD_STATEID} (10025). */
public final class BadStateIdException extends NfsException {
    private static final long serialVersionUID = 1L;

    public BadStateIdException() {
        super(NfsStatus.BAD_STATEID);
    }

    public BadStateIdException(String message) {
        super(NfsStatus.BAD_STATEID, message);
    }

    public BadStateIdException(String message, Throwable cause) {
        super(NfsStatus.BAD_STATEID, message, cause);
    }
}
