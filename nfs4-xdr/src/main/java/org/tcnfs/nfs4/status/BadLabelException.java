package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_BADLABEL} (10093). */
public final class BadLabelException extends NfsException {
    private static final long serialVersionUID = 1L;

    public BadLabelException() {
        super(NfsStatus.BADLABEL);
    }

    public BadLabelException(String message) {
        super(NfsStatus.BADLABEL, message);
    }

    public BadLabelException(String message, Throwable cause) {
        super(NfsStatus.BADLABEL, message, cause);
    }
}
