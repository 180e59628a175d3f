package org.tcnfs.nfs4.status;

import java.io.IOException;
import java.util.Objects;

/**
 * An NFS operation failed with a specific {@link NfsStatus}.
 *
 * <p>There is one final subclass per status ({@link NoEntException}, {@link StaleException}, ...), so code
 * simply throws the one it means. The compound engine is the only place that turns these into results.
 */
public abstract class NfsException extends IOException {
    private static final long serialVersionUID = 1L;

    private final NfsStatus status;

    protected NfsException(NfsStatus status) {
        this(status, status.rfcName());
    }

    protected NfsException(NfsStatus status, String message) {
        super(message);
        this.status = Objects.requireNonNull(status);
    }

    protected NfsException(NfsStatus status, String message, Throwable cause) {
        super(message, cause);
        this.status = Objects.requireNonNull(status);
    }

    /** The status this exception stands for. */
    public NfsStatus status() {
        return status;
    }
}
