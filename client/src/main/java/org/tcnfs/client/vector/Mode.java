package org.tcnfs.client.vector;

/** How a vectorized call sends its compounds. */
public enum Mode {
    /**
     * Ordinary compounds (procedure 1), as many as the session's limits need; the server stops a compound at
     * its first failing operation and keeps what ran before it, and the call sends nothing after a failure.
     */
    PLAIN,
    /**
     * One compound with the transaction flag (procedure 0x80000001): all of it takes effect or none of it.
     * A call that does not fit the session's limits is refused before anything is sent.
     */
    TRANSACTION
}
