package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_NAMETOOLONG} (63). */
public final class NameTooLongException extends NfsException {
    private static final long serialVersionUID = 1L;

    public NameTooLongException() {
        super(NfsStatus.NAMETOOLONG);
    }

    public NameTooLongException(String message) {
        super(NfsStatus.NAMETOOLONG, message);
    }

    public NameTooLongException(String message, Throwable cause) {
        super(NfsStatus.NAMETOOLONG, message, cause);
    }
}
