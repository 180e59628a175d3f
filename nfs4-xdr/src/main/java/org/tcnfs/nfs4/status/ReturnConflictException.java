package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_RETURNCONFLICT} (10086). */
public final class ReturnConflictException extends NfsException {
    private static final long serialVersionUID = 1L;

    public ReturnConflictException() {
        super(NfsStatus.RETURNCONFLICT);
    }

    public ReturnConflictException(String message) {
        super(NfsStatus.RETURNCONFLICT, message);
    }

    public ReturnConflictException(String message, Throwable cause) {
        super(NfsStatus.RETURNCONFLICT, message, cause);
    }
}
