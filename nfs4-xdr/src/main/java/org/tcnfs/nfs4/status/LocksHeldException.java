package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_LOCKS_HELD} (10037). */
public final class LocksHeldException extends NfsException {
    private static final long serialVersionUID = 1L;

    public LocksHeldException() {
        super(NfsStatus.LOCKS_HELD);
    }

    public LocksHeldException(String message) {
        super(NfsStatus.LOCKS_HELD, message);
    }

    public LocksHeldException(String message, Throwable cause) {
        super(NfsStatus.LOCKS_HELD, message, cause);
    }
}
