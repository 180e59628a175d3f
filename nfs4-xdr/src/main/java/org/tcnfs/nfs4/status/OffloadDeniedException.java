package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_OFFLOAD_DENIED} (10091). */
public final class OffloadDeniedException extends NfsException {
    private static final long serialVersionUID = 1L;

    public OffloadDeniedException() {
        super(NfsStatus.OFFLOAD_DENIED);
    }

    public OffloadDeniedException(String message) {
        super(NfsStatus.OFFLOAD_DENIED, message);
    }

    public OffloadDeniedException(String message, Throwable cause) {
        super(NfsStatus.OFFLOAD_DENIED, message, cause);
    }
}
