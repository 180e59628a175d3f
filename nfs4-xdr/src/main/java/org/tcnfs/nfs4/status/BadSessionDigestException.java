package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_BAD_SESSION_DIGEST} (10051). */
public final class BadSessionDigestException extends NfsException {
    private static final long serialVersionUID = 1L;

    public BadSessionDigestException() {
        super(NfsStatus.BAD_SESSION_DIGEST);
    }

    public BadSessionDigestException(String message) {
        super(NfsStatus.BAD_SESSION_DIGEST, message);
    }

    public BadSessionDigestException(String message, Throwable cause) {
        super(NfsStatus.BAD_SESSION_DIGEST, message, cause);
    }
}
