package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_OLD_STATEID} (10024). */
public final class OldStateIdException extends NfsException {
    private static final long serialVersionUID = 1L;

    public OldStateIdException() {
        super(NfsStatus.OLD_STATEID);
    }

    public OldStateIdException(String message) {
        super(NfsStatus.OLD_STATEID, message);
    }

    public OldStateIdException(String message, Throwable cause) {
        super(NfsStatus.OLD_STATEID, message, cause);
    }
}
