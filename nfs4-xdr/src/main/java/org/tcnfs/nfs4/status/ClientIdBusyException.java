package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_CLIENTID_BUSY} (10074). */
public final class ClientIdBusyException extends NfsException {
    private static final long serialVersionUID = 1L;

    public ClientIdBusyException() {
        super(NfsStatus.CLIENTID_BUSY);
    }

    public ClientIdBusyException(String message) {
        super(NfsStatus.CLIENTID_BUSY, message);
    }

    public ClientIdBusyException(String message, Throwable cause) {
        super(NfsStatus.CLIENTID_BUSY, message, cause);
    }
}
