package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_BADLAYOUT} (10050). */
public final class BadLayoutException extends NfsException {
    private static final long serialVersionUID = 1L;

    public BadLayoutException() {
        super(NfsStatus.BADLAYOUT);
    }

    public BadLayoutException(String message) {
        super(NfsStatus.BADLAYOUT, message);
    }

    public BadLayoutException(String message, Throwable cause) {
        super(NfsStatus.BADLAYOUT, message, cause);
    }
}
