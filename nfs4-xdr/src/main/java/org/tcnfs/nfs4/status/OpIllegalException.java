package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_OP_ILLEGAL} (10044). */
public final class OpIllegalException extends NfsException {
    private static final long serialVersionUID = 1L;

    public OpIllegalException() {
        super(NfsStatus.OP_ILLEGAL);
    }

    public OpIllegalException(String message) {
        super(NfsStatus.OP_ILLEGAL, message);
    }

    public OpIllegalException(String message, Throwable cause) {
        super(NfsStatus.OP_ILLEGAL, message, cause);
    }
}
