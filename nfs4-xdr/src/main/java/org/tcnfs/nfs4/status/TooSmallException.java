package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_TOOSMALL} (10005). */
public final class TooSmallException extends NfsException {
    private static final long serialVersionUID = 1L;

    public TooSmallException() {
        super(NfsStatus.TOOSMALL);
    }

    public TooSmallException(String message) {
        super(NfsStatus.TOOSMALL, message);
    }

    public TooSmallException(String message, Throwable cause) {
        super(NfsStatus.TOOSMALL, message, cause);
    }
}
