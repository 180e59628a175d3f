package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_ROFS} (30). */
public final class RoFsException extends NfsException {
    private static final long serialVersionUID = 1L;

    public RoFsException() {
        super(NfsStatus.ROFS);
    }

    public RoFsException(String message) {
        super(NfsStatus.ROFS, message);
    }

    public RoFsException(String message, Throwable cause) {
        super(NfsStatus.ROFS, message, cause);
    }
}
