package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_EXIST} (17). */
public final class ExistException extends NfsException {
    private static final long serialVersionUID = 1L;

    public ExistException() {
        super(NfsStatus.EXIST);
    }

    public ExistException(String message) {
        super(NfsStatus.EXIST, message);
    }

    public ExistException(String message, Throwable cause) {
        super(NfsStatus.EXIST, message, cause);
    }
}
