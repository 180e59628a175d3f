package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_PNFS_IO_HOLE} (10075). */
public final class PnfsIoHoleException extends NfsException {
    private static final long serialVersionUID = 1L;

    public PnfsIoHoleException() {
        super(NfsStatus.PNFS_IO_HOLE);
    }

    public PnfsIoHoleException(String message) {
        super(NfsStatus.PNFS_IO_HOLE, message);
    }

    public PnfsIoHoleException(String message, Throwable cause) {
        super(NfsStatus.PNFS_IO_HOLE, message, cause);
    }
}
