package org.tcnfs.txn;

import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.tcnfs.nfs4.status.NfsStatus;

/**
 * How the most recent transactions that span compounds ended, so that a TXN_COMMIT or TXN_ABORT the client sends
 * again (its first reply was late: a large commit or rollback outlasted the client's per-call timeout) gets the
 * answer the first one got, instead of NFS4ERR_BAD_STATEID for a transaction that is no longer open
 * (docs/protocol.md, "Retried TXN_COMMIT and TXN_ABORT"). Keeps the last {@code capacity} endings (about 100 bytes
 * each), oldest dropped first.
 *
 * <p>Thread-safe.
 */
final class EndedTransactions {
    /** Endings kept by default: far more than clients retry at once, about 400 KiB at most. */
    static final int DEFAULT_CAPACITY = 4096;
    private static final HexFormat HEX = HexFormat.of();

    /** How a transaction ended. */
    enum End {
        /** By TXN_COMMIT: committed (NFS4_OK) or failed and rolled back. */
        BY_COMMIT,
        /** By a rollback: TXN_ABORT, a failed compound, its connection closing, idling, the server stopping. */
        BY_ROLLBACK
    }

    private record Ending(String connection, End end, NfsStatus status) {
    }

    private final Map<String, Ending> endings;

    EndedTransactions(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        this.endings = new LinkedHashMap<>(64, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Ending> eldest) {
                return size() > capacity;
            }
        };
    }

    /** Transaction {@code id}, bound to {@code connection}, ended {@code end} with {@code status}. */
    synchronized void record(byte[] id, String connection, End end, NfsStatus status) {
        endings.put(HEX.formatHex(id), new Ending(connection, end, status));
    }

    /**
     * The answer of the call that ended transaction {@code id} when a call of kind {@code end} (TXN_COMMIT:
     * {@link End#BY_COMMIT}, TXN_ABORT: {@link End#BY_ROLLBACK}) on the same connection asks again; empty when it
     * is unknown, was bound to another connection, or ended otherwise (the caller answers NFS4ERR_BAD_STATEID).
     */
    synchronized Optional<NfsStatus> answer(byte[] id, String connection, End end) {
        Ending e = id == null ? null : endings.get(HEX.formatHex(id));
        if (e == null || !e.connection().equals(connection) || e.end() != end) {
            return Optional.empty();
        }
        return Optional.of(e.status());
    }
}
