package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_PNFS_NO_LAYOUT} (10080). */
public final class PnfsNoLayoutException extends NfsException {
    private static final long serialVersionUID = 1L;

    public PnfsNoLayoutException() {
        super(NfsStatus.PNFS_NO_LAYOUT);
    }

    public PnfsNoLayoutException(String message) {
        super(NfsStatus.PNFS_NO_LAYOUT, message);
    }

    public PnfsNoLayoutException(String message, Throwable cause) {
        super(NfsStatus.PNFS_NO_LAYOUT, message, cause);
    }
}
