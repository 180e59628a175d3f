package org.tcnfs.nfs4.status;

/** {@code NFS4ERR_RESOURCE} (10018). */
public final class ResourceException extends NfsException {
    private static final long serialVersionUID = 1L;

    public ResourceException() {
        super(NfsStatus.RESOURCE);
    }

    public ResourceException(String message) {
        super(NfsStatus.RESOURCE, message);
    }

    public ResourceException(String message, Throwable cause) {
        super(NfsStatus.RESOURCE, message, cause);
    }
}
