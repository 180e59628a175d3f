package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_HASH_ALG_UNSUPP} (10072). */
public final class HashAlgUnsuppException extends NfsException {
    private static final long serialVersionUID = 1L;

    public HashAlgUnsuppException() {
        super(NfsStatus.HASH_ALG_UNSUPP);
    }

    public HashAlgUnsuppException(String message) {
        super(NfsStatus.HASH_ALG_UNSUPP, message);
    }

    public HashAlgUnsuppException(String message, Throwable cause) {
        super(NfsStatus.HASH_ALG_UNSUPP, message, cause);
    }
}
