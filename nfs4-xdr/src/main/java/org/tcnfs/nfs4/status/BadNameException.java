package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_BADNAME} (10041). */
public final class BadNameException extends NfsException {
    private static final long serialVersionUID = 1L;

    public BadNameException() {
        super(NfsStatus.BADNAME);
    }

    public BadNameException(String message) {
        super(NfsStatus.BADNAME, message);
    }

    public BadNameException(String message, Throwable cause) {
        super(NfsStatus.BADNAME, message, cause);
    }
}
