package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_TOO_MANY_OPS} (10070). */
public final class TooManyOpsException extends NfsException {
    private static final long serialVersionUID = 1L;

    public TooManyOpsException() {
        super(NfsStatus.TOO_MANY_OPS);
    }

    public TooManyOpsException(String message) {
        super(NfsStatus.TOO_MANY_OPS, message);
    }

    public TooManyOpsException(String message, Throwable cause) {
        super(NfsStatus.TOO_MANY_OPS, message, cause);
    }
}
