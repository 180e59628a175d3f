package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_OP_NOT_IN_SESSION} (10071). */
public final class OpNotInSessionException extends NfsException {
    private static final long serialVersionUID = 1L;

    public OpNotInSessionException() {
        super(NfsStatus.OP_NOT_IN_SESSION);
    }

    public OpNotInSessionException(String message) {
        super(NfsStatus.OP_NOT_IN_SESSION, message);
    }

    public OpNotInSessionException(String message, Throwable cause) {
        super(NfsStatus.OP_NOT_IN_SESSION, message, cause);
    }
}
