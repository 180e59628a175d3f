package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_DIRDELEG_UNAVAIL} (10084). */
public final class DirDelegUnavailException extends NfsException {
    private static final long serialVersionUID = 1L;

    public DirDelegUnavailException() {
        super(NfsStatus.DIRDELEG_UNAVAIL);
    }

    public DirDelegUnavailException(String message) {
        super(NfsStatus.DIRDELEG_UNAVAIL, message);
    }

    public DirDelegUnavailException(String message, Throwable cause) {
        super(NfsStatus.DIRDELEG_UNAVAIL, message, cause);
    }
}
