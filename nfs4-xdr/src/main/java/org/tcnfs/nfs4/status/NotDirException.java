package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_NOTDIR} (20). */
public final class NotDirException extends NfsException {
    private static final long serialVersionUID = 1L;

    public NotDirException() {
        super(NfsStatus.NOTDIR);
    }

    public NotDirException(String message) {
        super(NfsStatus.NOTDIR, message);
    }

    public NotDirException(String message, Throwable cause) {
        super(NfsStatus.NOTDIR, message, cause);
    }
}
