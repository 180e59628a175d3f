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
        SERVER_WIDE("server-wide", "backup-budget-total"),
        /**
         * The free space of the backup area's file system, less the reserve ({@code backup-disk-reserve}):
         * {@link #inUse()} is then the free space, {@link #max()} the reserve.
         */
        DISK_SPACE("disk", "backup-disk-reserve");

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

        /** What an operator can do about it. */
        String advice() {
            return this == DISK_SPACE ? "free space on the export's file system (or lower " + setting + ")"
                    : "raise " + setting + " if such transactions are expected";
        }
    }

    private final Limit limit;
    private final long requested;
    private final long inUse;
    private final long max;

    BackupBudgetExceededException(Limit limit, long requested, long inUse, long max) {
        super(limit == Limit.DISK_SPACE
                ? "backups need " + requested + " bytes, more than the " + inUse + " free bytes of the export's file "
                        + "system less its reserve of " + max + " bytes (setting " + limit.setting + ")"
                : "backups need " + requested + " more allocated bytes, " + inUse + " in use, over the "
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

    /**
     * Bytes held already: by the transaction ({@link Limit#PER_TRANSACTION}) or by all of them; for
     * {@link Limit#DISK_SPACE} the free bytes of the file system.
     */
    public long inUse() {
        return inUse;
    }

    /** The limit. */
    public long max() {
        return max;
    }
}
