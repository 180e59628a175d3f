package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_DELEG_REVOKED} (10087). */
public final class DelegRevokedException extends NfsException {
    private static final long serialVersionUID = 1L;

    public DelegRevokedException() {
        super(NfsStatus.DELEG_REVOKED);
    }

    public DelegRevokedException(String message) {
        super(NfsStatus.DELEG_REVOKED, message);
    }

    public DelegRevokedException(String message, Throwable cause) {
        super(NfsStatus.DELEG_REVOKED, message, cause);
    }
}
