package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_DELEG_ALREADY_WANTED} (10056). */
public final class DelegAlreadyWantedException extends NfsException {
    private static final long serialVersionUID = 1L;

    public DelegAlreadyWantedException() {
        super(NfsStatus.DELEG_ALREADY_WANTED);
    }

    public DelegAlreadyWantedException(String message) {
        super(NfsStatus.DELEG_ALREADY_WANTED, message);
    }

    public DelegAlreadyWantedException(String message, Throwable cause) {
        super(NfsStatus.DELEG_ALREADY_WANTED, message, cause);
    }
}
