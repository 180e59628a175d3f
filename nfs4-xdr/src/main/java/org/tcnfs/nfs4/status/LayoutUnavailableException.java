package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_LAYOUTUNAVAILABLE} (10059). */
public final class LayoutUnavailableException extends NfsException {
    private static final long serialVersionUID = 1L;

    public LayoutUnavailableException() {
        super(NfsStatus.LAYOUTUNAVAILABLE);
    }

    public LayoutUnavailableException(String message) {
        super(NfsStatus.LAYOUTUNAVAILABLE, message);
    }

    public LayoutUnavailableException(String message, Throwable cause) {
        super(NfsStatus.LAYOUTUNAVAILABLE, message, cause);
    }
}
