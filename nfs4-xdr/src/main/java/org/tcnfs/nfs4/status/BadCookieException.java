package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_BAD_COOKIE} (10003). */
public final class BadCookieException extends NfsException {
    private static final long serialVersionUID = 1L;

    public BadCookieException() {
        super(NfsStatus.BAD_COOKIE);
    }

    public BadCookieException(String message) {
        super(NfsStatus.BAD_COOKIE, message);
    }

    public BadCookieException(String message, Throwable cause) {
        super(NfsStatus.BAD_COOKIE, message, cause);
    }
}
