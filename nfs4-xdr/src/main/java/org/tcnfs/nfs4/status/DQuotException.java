package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_DQUOT} (69). */
public final class DQuotException extends NfsException {
    private static final long serialVersionUID = 1L;

    public DQuotException() {
        super(NfsStatus.DQUOT);
    }

    public DQuotException(String message) {
        super(NfsStatus.DQUOT, message);
    }

    public DQuotException(String message, Throwable cause) {
        super(NfsStatus.DQUOT, message, cause);
    }
}
