package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_FILE_OPEN} (10046). */
public final class FileOpenException extends NfsException {
    private static final long serialVersionUID = 1L;

    public FileOpenException() {
        super(NfsStatus.FILE_OPEN);
    }

    public FileOpenException(String message) {
        super(NfsStatus.FILE_OPEN, message);
    }

    public FileOpenException(String message, Throwable cause) {
        super(NfsStatus.FILE_OPEN, message, cause);
    }
}
