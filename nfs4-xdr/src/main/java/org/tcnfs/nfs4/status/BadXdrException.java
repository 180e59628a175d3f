package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_BADXDR} (10036). */
public final class BadXdrException extends NfsException {
    private static final long serialVersionUID = 1L;

    public BadXdrException() {
        super(NfsStatus.BADXDR);
    }

    public BadXdrException(String message) {
        super(NfsStatus.BADXDR, message);
    }

    public BadXdrException(String message, Throwable cause) {
        super(NfsStatus.BADXDR, message, cause);
    }
}
