package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_NOTEMPTY} (66). */
public final class NotEmptyException extends NfsException {
    private static final long serialVersionUID = 1L;

    public NotEmptyException() {
        super(NfsStatus.NOTEMPTY);
    }

    public NotEmptyException(String message) {
        super(NfsStatus.NOTEMPTY, message);
    }

    public NotEmptyException(String message, Throwable cause) {
        super(NfsStatus.NOTEMPTY, message, cause);
    }
}
