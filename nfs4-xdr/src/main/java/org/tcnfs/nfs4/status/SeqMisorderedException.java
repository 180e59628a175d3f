package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_SEQ_MISORDERED} (10063). */
public final class SeqMisorderedException extends NfsException {
    private static final long serialVersionUID = 1L;

    public SeqMisorderedException() {
        super(NfsStatus.SEQ_MISORDERED);
    }

    public SeqMisorderedException(String message) {
        super(NfsStatus.SEQ_MISORDERED, message);
    }

    public SeqMisorderedException(String message, Throwable cause) {
        super(NfsStatus.SEQ_MISORDERED, message, cause);
    }
}
