package org.tcnfs.txn.backup;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How many bytes of backups transactions may hold: at most {@link #perTransaction()} for one transaction
 * and at most {@link #total()} for all transactions of the server together, counted in allocated bytes of
 * the ranges saved (holes cost nothing; a clone counts like a copy, because the blocks it shares stay
 * allocated until the backup is deleted). Bytes are charged when a backup is made and released when its
 * transaction's backups are deleted ({@link BackupManager#discard()}); backups left by a crash are not
 * counted (recovery deletes them before the server serves).
 *
 * <p>One instance serves every {@link BackupStore} of a server. Thread-safe.
 */
public final class BackupBudget {
    private static final Logger LOG = LoggerFactory.getLogger(BackupBudget.class);
    /** At most one log line about refusals per this many nanoseconds; the others are counted. */
    private static final long LOG_INTERVAL_NANOS = 10_000_000_000L;
    /** No limits: for recovery, tools and tests. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    private final long perTransaction;
    private final long total;
    private final AtomicLong used = new AtomicLong();
    private final LongAdder refusals = new LongAdder();
    private final AtomicLong lastLog = new AtomicLong(System.nanoTime() - LOG_INTERVAL_NANOS);
    private final AtomicLong unlogged = new AtomicLong();

    /**
     * @param perTransaction most backup bytes of one transaction
     * @param total most backup bytes of all transactions together
     */
    public BackupBudget(long perTransaction, long total) {
        if (perTransaction < 0 || total < 0) {
            throw new IllegalArgumentException("negative budget: " + perTransaction + ", " + total);
        }
        this.perTransaction = perTransaction;
        this.total = total;
    }

    /** A budget without limits. */
    public static BackupBudget unlimited() {
        return new BackupBudget(UNLIMITED, UNLIMITED);
    }

    /** Most backup bytes of one transaction. */
    public long perTransaction() {
        return perTransaction;
    }

    /** Most backup bytes of all transactions together. */
    public long total() {
        return total;
    }

    /** Backup bytes held now, over all transactions. */
    public long used() {
        return used.get();
    }

    /** Transactions refused because their backups would not fit, since the start. */
    public long refusals() {
        return refusals.sum();
    }

    /**
     * Checks that a transaction holding {@code held} bytes may add {@code more}, without charging anything.
     *
     * @throws BackupBudgetExceededException when it may not
     */
    void check(long held, long more) throws BackupBudgetExceededException {
        if (more > perTransaction - held) {
            throw refuse(BackupBudgetExceededException.Limit.PER_TRANSACTION, held, more, perTransaction);
        }
        long now = used.get();
        if (more > total - now) {
            throw refuse(BackupBudgetExceededException.Limit.SERVER_WIDE, now, more, total);
        }
    }

    /**
     * Charges {@code more} bytes to a transaction holding {@code held}, atomically against the server-wide
     * limit.
     *
     * @throws BackupBudgetExceededException when they do not fit; nothing is charged then
     */
    void charge(long held, long more) throws BackupBudgetExceededException {
        if (more > perTransaction - held) {
            throw refuse(BackupBudgetExceededException.Limit.PER_TRANSACTION, held, more, perTransaction);
        }
        while (true) {
            long now = used.get();
            if (more > total - now) {
                throw refuse(BackupBudgetExceededException.Limit.SERVER_WIDE, now, more, total);
            }
            if (used.compareAndSet(now, now + more)) {
                return;
            }
        }
    }

    /** Gives back bytes charged earlier. */
    void release(long bytes) {
        if (bytes > 0) {
            used.addAndGet(-bytes);
        }
    }

    private BackupBudgetExceededException refuse(BackupBudgetExceededException.Limit limit, long inUse, long more,
            long max) {
        refusals.increment();
        BackupBudgetExceededException e = new BackupBudgetExceededException(limit, more, inUse, max);
        long now = System.nanoTime();
        long last = lastLog.get();
        if (now - last >= LOG_INTERVAL_NANOS && lastLog.compareAndSet(last, now)) {
            long others = unlogged.getAndSet(0);
            LOG.warn("transaction refused with NFS4ERR_NOSPC: {}; raise {} if such transactions are expected{}",
                    e.getMessage(), limit.setting(), others == 0 ? "" : " (" + others + " more refused since the "
                            + "last such line)");
        } else {
            unlogged.incrementAndGet();
        }
        return e;
    }
}
