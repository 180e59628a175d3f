package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_ENCR_ALG_UNSUPP} (10079). */
public final class EncrAlgUnsuppException extends NfsException {
    private static final long serialVersionUID = 1L;

    public EncrAlgUnsuppException() {
        super(NfsStatus.ENCR_ALG_UNSUPP);
    }

    public EncrAlgUnsuppException(String message) {
        super(NfsStatus.ENCR_ALG_UNSUPP, message);
    }

    public EncrAlgUnsuppException(String message, Throwable cause) {
        super(NfsStatus.ENCR_ALG_UNSUPP, message, cause);
    }
}
