package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_NOT_SAME} (10027). */
public final class NotSameException extends NfsException {
    private static final long serialVersionUID = 1L;

    public NotSameException() {
        super(NfsStatus.NOT_SAME);
    }

    public NotSameException(String message) {
        super(NfsStatus.NOT_SAME, message);
    }

    public NotSameException(String message, Throwable cause) {
        super(NfsStatus.NOT_SAME, message, cause);
    }
}
