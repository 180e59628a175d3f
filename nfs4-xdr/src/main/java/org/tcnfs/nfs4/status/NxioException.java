package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_NXIO} (6). */
public final class NxioException extends NfsException {
    private static final long serialVersionUID = 1L;

    public NxioException() {
        super(NfsStatus.NXIO);
    }

    public NxioException(String message) {
        super(NfsStatus.NXIO, message);
    }

    public NxioException(String message, Throwable cause) {
        super(NfsStatus.NXIO, message, cause);
    }
}
