package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_INVAL} (22). */
public final class InvalException extends NfsException {
    private static final long serialVersionUID = 1L;

    public InvalException() {
        super(NfsStatus.INVAL);
    }

    public InvalException(String message) {
        super(NfsStatus.INVAL, message);
    }

    public InvalException(String message, Throwable cause) {
        super(NfsStatus.INVAL, message, cause);
    }
}
