package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_COMPLETE_ALREADY} (10054). */
public final class CompleteAlreadyException extends NfsException {
    private static final long serialVersionUID = 1L;

    public CompleteAlreadyException() {
        super(NfsStatus.COMPLETE_ALREADY);
    }

    public CompleteAlreadyException(String message) {
        super(NfsStatus.COMPLETE_ALREADY, message);
    }

    public CompleteAlreadyException(String message, Throwable cause) {
        super(NfsStatus.COMPLETE_ALREADY, message, cause);
    }
}
