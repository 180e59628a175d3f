package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_IO} (5). */
public final class IoException extends NfsException {
    private static final long serialVersionUID = 1L;

    public IoException() {
        super(NfsStatus.IO);
    }

    public IoException(String message) {
        super(NfsStatus.IO, message);
    }

    public IoException(String message, Throwable cause) {
        super(NfsStatus.IO, message, cause);
    }

    /** A fault of the server: the log shows where it was raised. */
    @Override
    protected boolean keepsStackTrace() {
        return true;
    }
}
