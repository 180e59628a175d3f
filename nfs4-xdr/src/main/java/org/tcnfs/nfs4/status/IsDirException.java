package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_ISDIR} (21). */
public final class IsDirException extends NfsException {
    private static final long serialVersionUID = 1L;

    public IsDirException() {
        super(NfsStatus.ISDIR);
    }

    public IsDirException(String message) {
        super(NfsStatus.ISDIR, message);
    }

    public IsDirException(String message, Throwable cause) {
        super(NfsStatus.ISDIR, message, cause);
    }
}
