package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_LEASE_MOVED} (10031). */
public final class LeaseMovedException extends NfsException {
    private static final long serialVersionUID = 1L;

    public LeaseMovedException() {
        super(NfsStatus.LEASE_MOVED);
    }

    public LeaseMovedException(String message) {
        super(NfsStatus.LEASE_MOVED, message);
    }

    public LeaseMovedException(String message, Throwable cause) {
        super(NfsStatus.LEASE_MOVED, message, cause);
    }
}
