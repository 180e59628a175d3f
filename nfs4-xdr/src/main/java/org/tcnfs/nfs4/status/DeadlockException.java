package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_DEADLOCK} (10045). */
public final class DeadlockException extends NfsException {
    private static final long serialVersionUID = 1L;

    public DeadlockException() {
        super(NfsStatus.DEADLOCK);
    }

    public DeadlockException(String message) {
        super(NfsStatus.DEADLOCK, message);
    }

    public DeadlockException(String message, Throwable cause) {
        super(NfsStatus.DEADLOCK, message, cause);
    }
}
