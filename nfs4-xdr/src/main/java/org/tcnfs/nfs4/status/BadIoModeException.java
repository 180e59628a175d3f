package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_BADIOMODE} (10049). */
public final class BadIoModeException extends NfsException {
    private static final long serialVersionUID = 1L;

    public BadIoModeException() {
        super(NfsStatus.BADIOMODE);
    }

    public BadIoModeException(String message) {
        super(NfsStatus.BADIOMODE, message);
    }

    public BadIoModeException(String message, Throwable cause) {
        super(NfsStatus.BADIOMODE, message, cause);
    }
}
