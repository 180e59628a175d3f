package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_SEQUENCE_POS} (10064). */
public final class SequencePosException extends NfsException {
    private static final long serialVersionUID = 1L;

    public SequencePosException() {
        super(NfsStatus.SEQUENCE_POS);
    }

    public SequencePosException(String message) {
        super(NfsStatus.SEQUENCE_POS, message);
    }

    public SequencePosException(String message, Throwable cause) {
        super(NfsStatus.SEQUENCE_POS, message, cause);
    }
}
