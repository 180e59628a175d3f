package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_DELAY} (10008). */
public final class DelayException extends NfsException {
    private static final long serialVersionUID = 1L;

    public DelayException() {
        super(NfsStatus.DELAY);
    }

    public DelayException(String message) {
        super(NfsStatus.DELAY, message);
    }

    public DelayException(String message, Throwable cause) {
        super(NfsStatus.DELAY, message, cause);
    }
}
