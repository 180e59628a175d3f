package org.tcnfs.proto;

/**
 * Where transaction ids continue after a restart, so that they stay unique across restarts and crashes.
 *
 * <p>The intended use: at start, load the state (or {@link #INITIAL}); hand out ids from its floor on;
 * before handing out an id at or above the floor last persisted, persist {@link #advancedBy(long)} a block.
 * A crash then skips at most one block of ids and never reuses one.
 *
 * @param nextTxnIdFloor every id handed out before this state was persisted is below it; at least 1
 */
public record TxnIdState(long nextTxnIdFloor) {

    /** The state of a server that has never handed out an id: ids start at 1. */
    public static final TxnIdState INITIAL = new TxnIdState(1);

    public TxnIdState {
        if (nextTxnIdFloor < 1) {
            throw new IllegalArgumentException("transaction id floor must be at least 1, not " + nextTxnIdFloor);
        }
    }

    /**
     * The state after reserving {@code block} more ids.
     *
     * @throws IllegalArgumentException if {@code block} is not positive
     * @throws IllegalStateException if the ids would pass {@link Long#MAX_VALUE}
     */
    public TxnIdState advancedBy(long block) {
        if (block <= 0) {
            throw new IllegalArgumentException("block must be positive, not " + block);
        }
        if (nextTxnIdFloor > Long.MAX_VALUE - block) {
            throw new IllegalStateException("transaction ids exhausted at " + nextTxnIdFloor);
        }
        return new TxnIdState(nextTxnIdFloor + block);
    }
}
