package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_REP_TOO_BIG_TO_CACHE} (10067). */
public final class RepTooBigToCacheException extends NfsException {
    private static final long serialVersionUID = 1L;

    public RepTooBigToCacheException() {
        super(NfsStatus.REP_TOO_BIG_TO_CACHE);
    }

    public RepTooBigToCacheException(String message) {
        super(NfsStatus.REP_TOO_BIG_TO_CACHE, message);
    }

    public RepTooBigToCacheException(String message, Throwable cause) {
        super(NfsStatus.REP_TOO_BIG_TO_CACHE, message, cause);
    }
}
