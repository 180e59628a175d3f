package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_PARTNER_NOTSUPP} (10088). */
public final class PartnerNotSuppException extends NfsException {
    private static final long serialVersionUID = 1L;

    public PartnerNotSuppException() {
        super(NfsStatus.PARTNER_NOTSUPP);
    }

    public PartnerNotSuppException(String message) {
        super(NfsStatus.PARTNER_NOTSUPP, message);
    }

    public PartnerNotSuppException(String message, Throwable cause) {
        super(NfsStatus.PARTNER_NOTSUPP, message, cause);
    }
}
