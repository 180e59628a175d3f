package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_RECLAIM_CONFLICT} (10035). */
public final class ReclaimConflictException extends NfsException {
    private static final long serialVersionUID = 1L;

    public ReclaimConflictException() {
        super(NfsStatus.RECLAIM_CONFLICT);
    }

    public ReclaimConflictException(String message) {
        super(NfsStatus.RECLAIM_CONFLICT, message);
    }

    public ReclaimConflictException(String message, Throwable cause) {
        super(NfsStatus.RECLAIM_CONFLICT, message, cause);
    }
}
