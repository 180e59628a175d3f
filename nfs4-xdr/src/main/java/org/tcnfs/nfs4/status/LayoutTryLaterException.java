package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_LAYOUTTRYLATER} (10058). */
public final class LayoutTryLaterException extends NfsException {
    private static final long serialVersionUID = 1L;

    public LayoutTryLaterException() {
        super(NfsStatus.LAYOUTTRYLATER);
    }

    public LayoutTryLaterException(String message) {
        super(NfsStatus.LAYOUTTRYLATER, message);
    }

    public LayoutTryLaterException(String message, Throwable cause) {
        super(NfsStatus.LAYOUTTRYLATER, message, cause);
    }
}
