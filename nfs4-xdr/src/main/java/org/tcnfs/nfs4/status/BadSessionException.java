package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_BADSESSION} (10052). */
public final class BadSessionException extends NfsException {
    private static final long serialVersionUID = 1L;

    public BadSessionException() {
        super(NfsStatus.BADSESSION);
    }

    public BadSessionException(String message) {
        super(NfsStatus.BADSESSION, message);
    }

    public BadSessionException(String message, Throwable cause) {
        super(NfsStatus.BADSESSION, message, cause);
    }
}
