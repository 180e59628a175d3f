package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_BADTYPE} (10007). */
public final class BadTypeException extends NfsException {
    private static final long serialVersionUID = 1L;

    public BadTypeException() {
        super(NfsStatus.BADTYPE);
    }

    public BadTypeException(String message) {
        super(NfsStatus.BADTYPE, message);
    }

    public BadTypeException(String message, Throwable cause) {
        super(NfsStatus.BADTYPE, message, cause);
    }
}
