package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_BADSLOT} (10053). */
public final class BadSlotException extends NfsException {
    private static final long serialVersionUID = 1L;

    public BadSlotException() {
        super(NfsStatus.BADSLOT);
    }

    public BadSlotException(String message) {
        super(NfsStatus.BADSLOT, message);
    }

    public BadSlotException(String message, Throwable cause) {
        super(NfsStatus.BADSLOT, message, cause);
    }
}
