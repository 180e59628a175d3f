package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_NOT_ONLY_OP} (10081). */
public final class NotOnlyOpException extends NfsException {
    private static final long serialVersionUID = 1L;

    public NotOnlyOpException() {
        super(NfsStatus.NOT_ONLY_OP);
    }

    public NotOnlyOpException(String message) {
        super(NfsStatus.NOT_ONLY_OP, message);
    }

    public NotOnlyOpException(String message, Throwable cause) {
        super(NfsStatus.NOT_ONLY_OP, message, cause);
    }
}
