package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_SYMLINK} (10029). */
public final class SymlinkException extends NfsException {
    private static final long serialVersionUID = 1L;

    public SymlinkException() {
        super(NfsStatus.SYMLINK);
    }

    public SymlinkException(String message) {
        super(NfsStatus.SYMLINK, message);
    }

    public SymlinkException(String message, Throwable cause) {
        super(NfsStatus.SYMLINK, message, cause);
    }
}
