package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_BACK_CHAN_BUSY} (10057). */
public final class BackChanBusyException extends NfsException {
    private static final long serialVersionUID = 1L;

    public BackChanBusyException() {
        super(NfsStatus.BACK_CHAN_BUSY);
    }

    public BackChanBusyException(String message) {
        super(NfsStatus.BACK_CHAN_BUSY, message);
    }

    public BackChanBusyException(String message, Throwable cause) {
        super(NfsStatus.BACK_CHAN_BUSY, message, cause);
    }
}
