package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_BAD_SEQID} (10026). */
public final class BadSeqIdException extends NfsException {
    private static final long serialVersionUID = 1L;

    public BadSeqIdException() {
        super(NfsStatus.BAD_SEQID);
    }

    public BadSeqIdException(String message) {
        super(NfsStatus.BAD_SEQID, message);
    }

    public BadSeqIdException(String message, Throwable cause) {
        super(NfsStatus.BAD_SEQID, message, cause);
    }
}
