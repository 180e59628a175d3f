package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_PERM} (1). */
public final class PermException extends NfsException {
    private static final long serialVersionUID = 1L;

    public PermException() {
        super(NfsStatus.PERM);
    }

    public PermException(String message) {
        super(NfsStatus.PERM, message);
    }

    public PermException(String message, Throwable cause) {
        super(NfsStatus.PERM, message, cause);
    }
}
