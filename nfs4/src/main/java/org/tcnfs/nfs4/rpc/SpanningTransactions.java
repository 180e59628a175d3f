package org.tcnfs.nfs4.rpc;

import org.tcnfs.nfs4.status.NfsStatus;

/**
 * Transactions that span compounds (tcnfs extension, docs/protocol.md): what serves TXN_BEGIN, TXN_COMMIT and
 * TXN_ABORT. TXN_COMPOUND runs through the compound engine like COMPOUND, with the transaction's id in
 * {@link org.tcnfs.nfs4.compound.CompoundContext#spanningTxn()}; the compound hooks do the rest.
 *
 * <p>Implementations are thread-safe.
 */
public interface SpanningTransactions {
    /**
     * A begun transaction, or why not.
     *
     * @param status NFS4_OK, or the refusal (NFS4ERR_DELAY when too many are open)
     * @param txnId its 16-byte id (empty unless OK)
     * @param ticket its wait-die ticket
     * @param maxCompounds the most TXN_COMPOUNDs it may carry
     * @param maxBytes the most bytes (requests and backups) it may carry
     * @param idleTimeoutMillis how long it may stay without a call before the server aborts it
     */
    record Begun(NfsStatus status, byte[] txnId, long ticket, int maxCompounds, long maxBytes,
            int idleTimeoutMillis) {
    }

    /**
     * TXN_BEGIN.
     *
     * @param ticket 0, or the ticket of an earlier attempt (kept when the server issued it)
     * @param connection the connection the call came on; the transaction is bound to it
     */
    Begun begin(long ticket, Connection connection);

    /** TXN_COMMIT: NFS4_OK iff the transaction committed; anything else means nothing of it took effect. */
    NfsStatus commit(byte[] txnId, Connection connection);

    /** TXN_ABORT: rolls the transaction back; NFS4_OK once nothing of it is left. */
    NfsStatus abort(byte[] txnId, Connection connection);

    /**
     * The transport connection a call came on.
     *
     * @param id the same for every call on one connection while it is open (its two socket addresses)
     * @param open whether the connection is still open
     * @param address the client's address (what {@code max-open-txns-per-address} counts by); null if unknown
     */
    record Connection(String id, java.util.function.BooleanSupplier open, java.net.InetAddress address) {
        /** A connection whose client address is not known. */
        public Connection(String id, java.util.function.BooleanSupplier open) {
            this(id, open, null);
        }
    }

    /** A TXN_COMPOUND's transaction id and connection, as its compound context carries them. */
    record Call(byte[] txnId, Connection connection) {
    }
}
