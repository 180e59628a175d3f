package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_SHARE_DENIED} (10015). */
public final class ShareDeniedException extends NfsException {
    private static final long serialVersionUID = 1L;

    public ShareDeniedException() {
        super(NfsStatus.SHARE_DENIED);
    }

    public ShareDeniedException(String message) {
        super(NfsStatus.SHARE_DENIED, message);
    }

    public ShareDeniedException(String message, Throwable cause) {
        super(NfsStatus.SHARE_DENIED, message, cause);
    }
}
