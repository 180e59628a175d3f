package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_DENIED} (10010). */
public final class DeniedException extends NfsException {
    private static final long serialVersionUID = 1L;

    public DeniedException() {
        super(NfsStatus.DENIED);
    }

    public DeniedException(String message) {
        super(NfsStatus.DENIED, message);
    }

    public DeniedException(String message, Throwable cause) {
        super(NfsStatus.DENIED, message, cause);
    }
}
