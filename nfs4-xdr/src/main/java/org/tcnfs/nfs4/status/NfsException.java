package org.tcnfs.nfs4.status;

import java.io.IOException;
import java.util.Objects;

/**
 * An NFS operation failed with a specific {@link NfsStatus}.
 *
 * <p>There is one final subclass per status ({@link NoEntException}, {@link StaleException}, ...), so code
 * simply throws the one it means. The compound engine is the only place that turns these into results.
 *
 * <p>A status is an answer, not a bug: most are made on ordinary paths (a LOOKUP of a name that does not exist,
 * which clients send before every create), so they carry no stack trace, which would cost more than the operation.
 * The statuses that stand for a failure of the server itself ({@link ServerFaultException}, {@link IoException})
 * keep theirs, and a cause keeps its own trace either way, so what the log shows of a fault is unchanged.
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

    /** No stack trace unless {@link #keepsStackTrace()} (called before this class's fields are set). */
    @Override
    public Throwable fillInStackTrace() {
        return keepsStackTrace() ? super.fillInStackTrace() : this;
    }

    /**
     * Whether this exception records where it was made: false for statuses that answer a client, true for those
     * that report a failure of the server. Must answer a constant of the class: it runs inside the constructor.
     */
    protected boolean keepsStackTrace() {
        return false;
    }

    /** The status this exception stands for. */
    public NfsStatus status() {
        return status;
    }
}
