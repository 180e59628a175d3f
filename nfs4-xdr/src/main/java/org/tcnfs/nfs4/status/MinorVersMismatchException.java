package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_MINOR_VERS_MISMATCH} (10021). */
public final class MinorVersMismatchException extends NfsException {
    private static final long serialVersionUID = 1L;

    public MinorVersMismatchException() {
        super(NfsStatus.MINOR_VERS_MISMATCH);
    }

    public MinorVersMismatchException(String message) {
        super(NfsStatus.MINOR_VERS_MISMATCH, message);
    }

    public MinorVersMismatchException(String message, Throwable cause) {
        super(NfsStatus.MINOR_VERS_MISMATCH, message, cause);
    }
}
