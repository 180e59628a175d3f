package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_FHEXPIRED} (10014). */
public final class FhExpiredException extends NfsException {
    private static final long serialVersionUID = 1L;

    public FhExpiredException() {
        super(NfsStatus.FHEXPIRED);
    }

    public FhExpiredException(String message) {
        super(NfsStatus.FHEXPIRED, message);
    }

    public FhExpiredException(String message, Throwable cause) {
        super(NfsStatus.FHEXPIRED, message, cause);
    }
}
