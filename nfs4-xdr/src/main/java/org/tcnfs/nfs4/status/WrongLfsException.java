package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_WRONG_LFS} (10092). */
public final class WrongLfsException extends NfsException {
    private static final long serialVersionUID = 1L;

    public WrongLfsException() {
        super(NfsStatus.WRONG_LFS);
    }

    public WrongLfsException(String message) {
        super(NfsStatus.WRONG_LFS, message);
    }

    public WrongLfsException(String message, Throwable cause) {
        super(NfsStatus.WRONG_LFS, message, cause);
    }
}
