package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_LOCK_RANGE} (10028). */
public final class LockRangeException extends NfsException {
    private static final long serialVersionUID = 1L;

    public LockRangeException() {
        super(NfsStatus.LOCK_RANGE);
    }

    public LockRangeException(String message) {
        super(NfsStatus.LOCK_RANGE, message);
    }

    public LockRangeException(String message, Throwable cause) {
        super(NfsStatus.LOCK_RANGE, message, cause);
    }
}
