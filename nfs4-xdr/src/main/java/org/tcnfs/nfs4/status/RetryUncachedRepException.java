package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_RETRY_UNCACHED_REP} (10068). */
public final class RetryUncachedRepException extends NfsException {
    private static final long serialVersionUID = 1L;

    public RetryUncachedRepException() {
        super(NfsStatus.RETRY_UNCACHED_REP);
    }

    public RetryUncachedRepException(String message) {
        super(NfsStatus.RETRY_UNCACHED_REP, message);
    }

    public RetryUncachedRepException(String message, Throwable cause) {
        super(NfsStatus.RETRY_UNCACHED_REP, message, cause);
    }
}
