package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_SERVERFAULT} (10006). */
public final class ServerFaultException extends NfsException {
    private static final long serialVersionUID = 1L;

    public ServerFaultException() {
        super(NfsStatus.SERVERFAULT);
    }

    public ServerFaultException(String message) {
        super(NfsStatus.SERVERFAULT, message);
    }

    public ServerFaultException(String message, Throwable cause) {
        super(NfsStatus.SERVERFAULT, message, cause);
    }

    /** A fault of the server: the log shows where it was raised. */
    @Override
    protected boolean keepsStackTrace() {
        return true;
    }
}
