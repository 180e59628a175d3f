package org.tcnfs.nfs4.vfs;

import java.time.Instant;

/**
 * A new value for a time attribute: either a time the client chose or the server's clock
 * ({@code settime4}).
 *
 * @param at the time to set, or {@code null} to use the server's current time
 */
public record TimeChange(Instant at) {

    /** Set the time to the server's current time. */
    public static TimeChange serverTime() {
        return new TimeChange(null);
    }

    /** Set the time to {@code at}. */
    public static TimeChange at(Instant at) {
        return new TimeChange(java.util.Objects.requireNonNull(at));
    }

    /** Whether the server's clock decides. */
    public boolean isServerTime() {
        return at == null;
    }
}
