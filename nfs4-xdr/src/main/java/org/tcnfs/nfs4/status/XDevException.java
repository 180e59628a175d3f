package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_XDEV} (18). */
public final class XDevException extends NfsException {
    private static final long serialVersionUID = 1L;

    public XDevException() {
        super(NfsStatus.XDEV);
    }

    public XDevException(String message) {
        super(NfsStatus.XDEV, message);
    }

    public XDevException(String message, Throwable cause) {
        super(NfsStatus.XDEV, message, cause);
    }
}
