package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_CB_PATH_DOWN} (10048). */
public final class CbPathDownException extends NfsException {
    private static final long serialVersionUID = 1L;

    public CbPathDownException() {
        super(NfsStatus.CB_PATH_DOWN);
    }

    public CbPathDownException(String message) {
        super(NfsStatus.CB_PATH_DOWN, message);
    }

    public CbPathDownException(String message, Throwable cause) {
        super(NfsStatus.CB_PATH_DOWN, message, cause);
    }
}
