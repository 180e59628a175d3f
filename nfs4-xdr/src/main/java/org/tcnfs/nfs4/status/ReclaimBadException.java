package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_RECLAIM_BAD} (10034). */
public final class ReclaimBadException extends NfsException {
    private static final long serialVersionUID = 1L;

    public ReclaimBadException() {
        super(NfsStatus.RECLAIM_BAD);
    }

    public ReclaimBadException(String message) {
        super(NfsStatus.RECLAIM_BAD, message);
    }

    public ReclaimBadException(String message, Throwable cause) {
        super(NfsStatus.RECLAIM_BAD, message, cause);
    }
}
