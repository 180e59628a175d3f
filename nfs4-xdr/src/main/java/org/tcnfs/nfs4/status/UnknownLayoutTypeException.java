package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_UNKNOWN_LAYOUTTYPE} (10062). */
public final class UnknownLayoutTypeException extends NfsException {
    private static final long serialVersionUID = 1L;

    public UnknownLayoutTypeException() {
        super(NfsStatus.UNKNOWN_LAYOUTTYPE);
    }

    public UnknownLayoutTypeException(String message) {
        super(NfsStatus.UNKNOWN_LAYOUTTYPE, message);
    }

    public UnknownLayoutTypeException(String message, Throwable cause) {
        super(NfsStatus.UNKNOWN_LAYOUTTYPE, message, cause);
    }
}
