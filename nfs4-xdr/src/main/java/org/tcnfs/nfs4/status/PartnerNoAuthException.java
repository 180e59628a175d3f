package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_PARTNER_NO_AUTH} (10089). */
public final class PartnerNoAuthException extends NfsException {
    private static final long serialVersionUID = 1L;

    public PartnerNoAuthException() {
        super(NfsStatus.PARTNER_NO_AUTH);
    }

    public PartnerNoAuthException(String message) {
        super(NfsStatus.PARTNER_NO_AUTH, message);
    }

    public PartnerNoAuthException(String message, Throwable cause) {
        super(NfsStatus.PARTNER_NO_AUTH, message, cause);
    }
}
