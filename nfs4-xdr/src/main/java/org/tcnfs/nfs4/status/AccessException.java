package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_ACCESS} (13). */
public final class AccessException extends NfsException {
    private static final long serialVersionUID = 1L;

    public AccessException() {
        super(NfsStatus.ACCESS);
    }

    public AccessException(String message) {
        super(NfsStatus.ACCESS, message);
    }

    public AccessException(String message, Throwable cause) {
        super(NfsStatus.ACCESS, message, cause);
    }
}
