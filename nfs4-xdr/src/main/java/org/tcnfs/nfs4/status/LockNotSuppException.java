package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_LOCK_NOTSUPP} (10043). */
public final class LockNotSuppException extends NfsException {
    private static final long serialVersionUID = 1L;

    public LockNotSuppException() {
        super(NfsStatus.LOCK_NOTSUPP);
    }

    public LockNotSuppException(String message) {
        super(NfsStatus.LOCK_NOTSUPP, message);
    }

    public LockNotSuppException(String message, Throwable cause) {
        super(NfsStatus.LOCK_NOTSUPP, message, cause);
    }
}
