package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_BAD_HIGH_SLOT} (10077). */
public final class BadHighSlotException extends NfsException {
    private static final long serialVersionUID = 1L;

    public BadHighSlotException() {
        super(NfsStatus.BAD_HIGH_SLOT);
    }

    public BadHighSlotException(String message) {
        super(NfsStatus.BAD_HIGH_SLOT, message);
    }

    public BadHighSlotException(String message, Throwable cause) {
        super(NfsStatus.BAD_HIGH_SLOT, message, cause);
    }
}
