package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_MLINK} (31). */
public final class MLinkException extends NfsException {
    private static final long serialVersionUID = 1L;

    public MLinkException() {
        super(NfsStatus.MLINK);
    }

    public MLinkException(String message) {
        super(NfsStatus.MLINK, message);
    }

    public MLinkException(String message, Throwable cause) {
        super(NfsStatus.MLINK, message, cause);
    }
}
