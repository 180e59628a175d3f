package org.tcnfs.nfs4.state;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a denied LOCK keeps its place in the file's queue of blocked lockers (RFC 7530 9.4, RFC 8881
 * 9.6): a blocking request (READW_LT, WRITEW_LT) is remembered for a lease, so that the client, which polls
 * for the lock, gets it before lockers that came later; a non-blocking one is not queued.
 *
 * @param queueFor how long a denied request stays queued after it was made; zero: not queued
 */
public record LockWait(Duration queueFor) {
    /** A non-blocking request. */
    public static final LockWait NONE = new LockWait(Duration.ZERO);

    public LockWait {
        Objects.requireNonNull(queueFor, "queueFor");
        if (queueFor.isNegative()) {
            throw new IllegalArgumentException("negative queueing time " + queueFor);
        }
    }

    /** A blocking request, queued for {@code lease} after each attempt. */
    public static LockWait blocking(Duration lease) {
        return new LockWait(lease);
    }

    /** Whether a denied request is queued. */
    boolean queues() {
        return !queueFor.isZero();
    }
}
