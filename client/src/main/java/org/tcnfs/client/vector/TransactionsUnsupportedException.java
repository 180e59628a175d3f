package org.tcnfs.client.vector;

import java.io.IOException;

/**
 * A transactional call could not run as a transaction, and nothing of it took effect: the server has no
 * transactions (it answered the transactional COMPOUND, procedure 0x80000001, with PROC_UNAVAIL; later
 * transactional calls on the same client then fail at once, without sending), or the server refused this
 * compound as a transaction before running any of it (NFS4ERR_NOTSUPP at its first operation: transactions
 * are off for the export, {@code txn=never} on tcnfs, or the compound cannot be planned).
 */
public final class TransactionsUnsupportedException extends IOException {
    private static final long serialVersionUID = 1L;

    private TransactionsUnsupportedException(String message, Throwable cause) {
        super(message, cause);
    }

    /** The server answered the transactional COMPOUND with PROC_UNAVAIL. */
    static TransactionsUnsupportedException procUnavail(String server, Throwable cause) {
        return new TransactionsUnsupportedException("server " + server + " does not support transactional compounds:"
                + " it answered PROC_UNAVAIL to procedure 0x80000001 (NFSv4 COMPOUND with the transaction flag);"
                + " nothing was changed", cause);
    }

    /** The server refused the compound as a transaction before running any operation. */
    static TransactionsUnsupportedException refused(String server, String compound) {
        return new TransactionsUnsupportedException("server " + server + " does not support transactional compounds"
                + " here: it refused the compound as a transaction with NFS4ERR_NOTSUPP before running any"
                + " operation (transactions are off for this export, or the compound cannot be planned); nothing"
                + " was changed [" + compound + "]", null);
    }
}
