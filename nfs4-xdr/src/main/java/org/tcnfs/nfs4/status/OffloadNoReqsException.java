package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_OFFLOAD_NO_REQS} (10094). */
public final class OffloadNoReqsException extends NfsException {
    private static final long serialVersionUID = 1L;

    public OffloadNoReqsException() {
        super(NfsStatus.OFFLOAD_NO_REQS);
    }

    public OffloadNoReqsException(String message) {
        super(NfsStatus.OFFLOAD_NO_REQS, message);
    }

    public OffloadNoReqsException(String message, Throwable cause) {
        super(NfsStatus.OFFLOAD_NO_REQS, message, cause);
    }
}
