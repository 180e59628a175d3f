package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_DEADSESSION} (10078). */
public final class DeadSessionException extends NfsException {
    private static final long serialVersionUID = 1L;

    public DeadSessionException() {
        super(NfsStatus.DEADSESSION);
    }

    public DeadSessionException(String message) {
        super(NfsStatus.DEADSESSION, message);
    }

    public DeadSessionException(String message, Throwable cause) {
        super(NfsStatus.DEADSESSION, message, cause);
    }
}
