package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_REQ_TOO_BIG} (10065). */
public final class ReqTooBigException extends NfsException {
    private static final long serialVersionUID = 1L;

    public ReqTooBigException() {
        super(NfsStatus.REQ_TOO_BIG);
    }

    public ReqTooBigException(String message) {
        super(NfsStatus.REQ_TOO_BIG, message);
    }

    public ReqTooBigException(String message, Throwable cause) {
        super(NfsStatus.REQ_TOO_BIG, message, cause);
    }
}
