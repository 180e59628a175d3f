package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_RESTOREFH} (10030). */
public final class RestoreFhException extends NfsException {
    private static final long serialVersionUID = 1L;

    public RestoreFhException() {
        super(NfsStatus.RESTOREFH);
    }

    public RestoreFhException(String message) {
        super(NfsStatus.RESTOREFH, message);
    }

    public RestoreFhException(String message, Throwable cause) {
        super(NfsStatus.RESTOREFH, message, cause);
    }
}
