package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_NOSPC} (28). */
public final class NoSpcException extends NfsException {
    private static final long serialVersionUID = 1L;

    public NoSpcException() {
        super(NfsStatus.NOSPC);
    }

    public NoSpcException(String message) {
        super(NfsStatus.NOSPC, message);
    }

    public NoSpcException(String message, Throwable cause) {
        super(NfsStatus.NOSPC, message, cause);
    }
}
