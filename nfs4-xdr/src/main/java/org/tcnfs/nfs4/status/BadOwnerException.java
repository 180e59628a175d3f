package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_BADOWNER} (10039). */
public final class BadOwnerException extends NfsException {
    private static final long serialVersionUID = 1L;

    public BadOwnerException() {
        super(NfsStatus.BADOWNER);
    }

    public BadOwnerException(String message) {
        super(NfsStatus.BADOWNER, message);
    }

    public BadOwnerException(String message, Throwable cause) {
        super(NfsStatus.BADOWNER, message, cause);
    }
}
