package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_OPENMODE} (10038). */
public final class OpenModeException extends NfsException {
    private static final long serialVersionUID = 1L;

    public OpenModeException() {
        super(NfsStatus.OPENMODE);
    }

    public OpenModeException(String message) {
        super(NfsStatus.OPENMODE, message);
    }

    public OpenModeException(String message, Throwable cause) {
        super(NfsStatus.OPENMODE, message, cause);
    }
}
