package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_CLID_INUSE} (10017). */
public final class ClidInUseException extends NfsException {
    private static final long serialVersionUID = 1L;

    public ClidInUseException() {
        super(NfsStatus.CLID_INUSE);
    }

    public ClidInUseException(String message) {
        super(NfsStatus.CLID_INUSE, message);
    }

    public ClidInUseException(String message, Throwable cause) {
        super(NfsStatus.CLID_INUSE, message, cause);
    }
}
