package org.tcnfs.client.vector;

/** What became of one item of a vectorized call. */
public enum Outcome {
    /** The item's operations ran and succeeded (and, in a transaction, committed). */
    DONE,
    /** One of the item's operations failed; {@link ItemResult#status()} says how. */
    FAILED,
    /** The item's operations ran and succeeded, but the transaction rolled back, so nothing of it remains. */
    UNDONE,
    /** The item was not sent, or its operations did not run, because an earlier item failed. */
    NOT_RUN
}
