package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_ATTRNOTSUPP} (10032). */
public final class AttrNotSuppException extends NfsException {
    private static final long serialVersionUID = 1L;

    public AttrNotSuppException() {
        super(NfsStatus.ATTRNOTSUPP);
    }

    public AttrNotSuppException(String message) {
        super(NfsStatus.ATTRNOTSUPP, message);
    }

    public AttrNotSuppException(String message, Throwable cause) {
        super(NfsStatus.ATTRNOTSUPP, message, cause);
    }
}
