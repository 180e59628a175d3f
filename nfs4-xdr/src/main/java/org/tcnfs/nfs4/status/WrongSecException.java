package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_WRONGSEC} (10016). */
public final class WrongSecException extends NfsException {
    private static final long serialVersionUID = 1L;

    public WrongSecException() {
        super(NfsStatus.WRONGSEC);
    }

    public WrongSecException(String message) {
        super(NfsStatus.WRONGSEC, message);
    }

    public WrongSecException(String message, Throwable cause) {
        super(NfsStatus.WRONGSEC, message, cause);
    }
}
