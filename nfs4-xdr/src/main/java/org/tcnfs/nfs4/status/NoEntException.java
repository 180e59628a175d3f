package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_NOENT} (2). */
public final class NoEntException extends NfsException {
    private static final long serialVersionUID = 1L;

    public NoEntException() {
        super(NfsStatus.NOENT);
    }

    public NoEntException(String message) {
        super(NfsStatus.NOENT, message);
    }

    public NoEntException(String message, Throwable cause) {
        super(NfsStatus.NOENT, message, cause);
    }
}
