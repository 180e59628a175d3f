package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_NOMATCHING_LAYOUT} (10060). */
public final class NoMatchingLayoutException extends NfsException {
    private static final long serialVersionUID = 1L;

    public NoMatchingLayoutException() {
        super(NfsStatus.NOMATCHING_LAYOUT);
    }

    public NoMatchingLayoutException(String message) {
        super(NfsStatus.NOMATCHING_LAYOUT, message);
    }

    public NoMatchingLayoutException(String message, Throwable cause) {
        super(NfsStatus.NOMATCHING_LAYOUT, message, cause);
    }
}
