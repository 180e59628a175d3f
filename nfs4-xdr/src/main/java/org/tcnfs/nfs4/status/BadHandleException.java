package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_BADHANDLE} (10001). */
public final class BadHandleException extends NfsException {
    private static final long serialVersionUID = 1L;

    public BadHandleException() {
        super(NfsStatus.BADHANDLE);
    }

    public BadHandleException(String message) {
        super(NfsStatus.BADHANDLE, message);
    }

    public BadHandleException(String message, Throwable cause) {
        super(NfsStatus.BADHANDLE, message, cause);
    }
}
