package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_REJECT_DELEG} (10085). */
public final class RejectDelegException extends NfsException {
    private static final long serialVersionUID = 1L;

    public RejectDelegException() {
        super(NfsStatus.REJECT_DELEG);
    }

    public RejectDelegException(String message) {
        super(NfsStatus.REJECT_DELEG, message);
    }

    public RejectDelegException(String message, Throwable cause) {
        super(NfsStatus.REJECT_DELEG, message, cause);
    }
}
