package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_WRONG_CRED} (10082). */
public final class WrongCredException extends NfsException {
    private static final long serialVersionUID = 1L;

    public WrongCredException() {
        super(NfsStatus.WRONG_CRED);
    }

    public WrongCredException(String message) {
        super(NfsStatus.WRONG_CRED, message);
    }

    public WrongCredException(String message, Throwable cause) {
        super(NfsStatus.WRONG_CRED, message, cause);
    }
}
