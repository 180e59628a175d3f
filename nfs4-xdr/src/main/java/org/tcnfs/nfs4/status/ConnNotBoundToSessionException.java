package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_CONN_NOT_BOUND_TO_SESSION} (10055). */
public final class ConnNotBoundToSessionException extends NfsException {
    private static final long serialVersionUID = 1L;

    public ConnNotBoundToSessionException() {
        super(NfsStatus.CONN_NOT_BOUND_TO_SESSION);
    }

    public ConnNotBoundToSessionException(String message) {
        super(NfsStatus.CONN_NOT_BOUND_TO_SESSION, message);
    }

    public ConnNotBoundToSessionException(String message, Throwable cause) {
        super(NfsStatus.CONN_NOT_BOUND_TO_SESSION, message, cause);
    }
}
