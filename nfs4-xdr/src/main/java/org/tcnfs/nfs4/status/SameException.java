package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_SAME} (10009). */
public final class SameException extends NfsException {
    private static final long serialVersionUID = 1L;

    public SameException() {
        super(NfsStatus.SAME);
    }

    public SameException(String message) {
        super(NfsStatus.SAME, message);
    }

    public SameException(String message, Throwable cause) {
        super(NfsStatus.SAME, message, cause);
    }
}
