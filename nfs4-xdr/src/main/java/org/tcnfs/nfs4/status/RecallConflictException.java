package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_RECALLCONFLICT} (10061). */
public final class RecallConflictException extends NfsException {
    private static final long serialVersionUID = 1L;

    public RecallConflictException() {
        super(NfsStatus.RECALLCONFLICT);
    }

    public RecallConflictException(String message) {
        super(NfsStatus.RECALLCONFLICT, message);
    }

    public RecallConflictException(String message, Throwable cause) {
        super(NfsStatus.RECALLCONFLICT, message, cause);
    }
}
