package org.tcnfs.txn.lock;

import java.time.Duration;
import org.tcnfs.txn.TxnException;

/**
 * The locks of a compound could not all be taken within the timeout. Nothing is held when it is thrown:
 * every lock already taken was released. The compound layer answers NFS4ERR_DELAY, so the client retries.
 */
public final class LockTimeoutException extends TxnException {
    private static final long serialVersionUID = 1L;

    private final Duration timeout;
    private final transient LockKey waitingFor;
    private final LockMode mode;

    LockTimeoutException(Duration timeout, LockKey waitingFor, LockMode mode) {
        super("locks not granted within " + timeout + ": waited for " + mode + " on " + waitingFor);
        this.timeout = timeout;
        this.waitingFor = waitingFor;
        this.mode = mode;
    }

    /** The timeout that ran out. */
    public Duration timeout() {
        return timeout;
    }

    /** The key whose lock was not granted; for diagnostics. Null after deserialization. */
    public LockKey waitingFor() {
        return waitingFor;
    }

    /** The mode in which that key was wanted. */
    public LockMode mode() {
        return mode;
    }
}
