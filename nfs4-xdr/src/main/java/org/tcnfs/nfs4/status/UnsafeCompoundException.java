package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_UNSAFE_COMPOUND} (10069). */
public final class UnsafeCompoundException extends NfsException {
    private static final long serialVersionUID = 1L;

    public UnsafeCompoundException() {
        super(NfsStatus.UNSAFE_COMPOUND);
    }

    public UnsafeCompoundException(String message) {
        super(NfsStatus.UNSAFE_COMPOUND, message);
    }

    public UnsafeCompoundException(String message, Throwable cause) {
        super(NfsStatus.UNSAFE_COMPOUND, message, cause);
    }
}
