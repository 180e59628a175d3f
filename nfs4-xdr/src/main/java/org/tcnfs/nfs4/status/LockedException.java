package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_LOCKED} (10012). */
public final class LockedException extends NfsException {
    private static final long serialVersionUID = 1L;

    public LockedException() {
        super(NfsStatus.LOCKED);
    }

    public LockedException(String message) {
        super(NfsStatus.LOCKED, message);
    }

    public LockedException(String message, Throwable cause) {
        super(NfsStatus.LOCKED, message, cause);
    }
}
