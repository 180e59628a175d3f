package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_NOFILEHANDLE} (10020). */
public final class NoFileHandleException extends NfsException {
    private static final long serialVersionUID = 1L;

    public NoFileHandleException() {
        super(NfsStatus.NOFILEHANDLE);
    }

    public NoFileHandleException(String message) {
        super(NfsStatus.NOFILEHANDLE, message);
    }

    public NoFileHandleException(String message, Throwable cause) {
        super(NfsStatus.NOFILEHANDLE, message, cause);
    }
}
