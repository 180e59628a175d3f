package org.tcnfs.txn.backup;

import org.tcnfs.txn.TxnException;

/**
 * The backups a transaction needs do not fit in its {@link BackupBudget}: nothing was saved or charged for
 * the request that failed. The transaction layer refuses the transaction (NFS4ERR_NOSPC).
 */
public final class BackupBudgetExceededException extends TxnException {
    private static final long serialVersionUID = 1L;

    /** Which limit was hit. */
    public enum Limit {
        /** The transaction's own limit ({@code backup-budget-per-txn}). */
        PER_TRANSACTION("per-transaction", "backup-budget-per-txn"),
        /** The limit of all transactions together ({@code backup-budget-total}). */
        SERVER_WIDE("server-wide", "backup-budget-total");

        private final String description;
        private final String setting;

        Limit(String description, String setting) {
            this.description = description;
            this.setting = setting;
        }

        /** The server setting that raises this limit. */
        public String setting() {
            return setting;
        }
    }

    private final Limit limit;
    private final long requested;
    private final long inUse;
    private final long max;

    BackupBudgetExceededException(Limit limit, long requested, long inUse, long max) {
        super("backups need " + requested + " more allocated bytes, " + inUse + " in use, over the "
                + limit.description + " backup budget of " + max + " bytes (setting " + limit.setting + ")");
        this.limit = limit;
        this.requested = requested;
        this.inUse = inUse;
        this.max = max;
    }

    public Limit limit() {
        return limit;
    }

    /** Allocated bytes the refused backups needed. */
    public long requested() {
        return requested;
    }

    /** Bytes held already: by the transaction ({@link Limit#PER_TRANSACTION}) or by all of them. */
    public long inUse() {
        return inUse;
    }

    /** The limit. */
    public long max() {
        return max;
    }
}
