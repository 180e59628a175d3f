package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_MOVED} (10019). */
public final class MovedException extends NfsException {
    private static final long serialVersionUID = 1L;

    public MovedException() {
        super(NfsStatus.MOVED);
    }

    public MovedException(String message) {
        super(NfsStatus.MOVED, message);
    }

    public MovedException(String message, Throwable cause) {
        super(NfsStatus.MOVED, message, cause);
    }
}
