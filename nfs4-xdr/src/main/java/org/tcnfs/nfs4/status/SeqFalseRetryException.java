package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_SEQ_FALSE_RETRY} (10076). */
public final class SeqFalseRetryException extends NfsException {
    private static final long serialVersionUID = 1L;

    public SeqFalseRetryException() {
        super(NfsStatus.SEQ_FALSE_RETRY);
    }

    public SeqFalseRetryException(String message) {
        super(NfsStatus.SEQ_FALSE_RETRY, message);
    }

    public SeqFalseRetryException(String message, Throwable cause) {
        super(NfsStatus.SEQ_FALSE_RETRY, message, cause);
    }
}
