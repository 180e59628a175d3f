package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_WRONG_TYPE} (10083). */
public final class WrongTypeException extends NfsException {
    private static final long serialVersionUID = 1L;

    public WrongTypeException() {
        super(NfsStatus.WRONG_TYPE);
    }

    public WrongTypeException(String message) {
        super(NfsStatus.WRONG_TYPE, message);
    }

    public WrongTypeException(String message, Throwable cause) {
        super(NfsStatus.WRONG_TYPE, message, cause);
    }
}
