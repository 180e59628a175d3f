package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_ADMIN_REVOKED} (10047). */
public final class AdminRevokedException extends NfsException {
    private static final long serialVersionUID = 1L;

    public AdminRevokedException() {
        super(NfsStatus.ADMIN_REVOKED);
    }

    public AdminRevokedException(String message) {
        super(NfsStatus.ADMIN_REVOKED, message);
    }

    public AdminRevokedException(String message, Throwable cause) {
        super(NfsStatus.ADMIN_REVOKED, message, cause);
    }
}
