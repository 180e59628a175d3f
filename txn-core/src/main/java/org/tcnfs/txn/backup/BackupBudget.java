package org.tcnfs.txn.backup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * <p>Backups also need room on the disk: {@link #checkDiskSpace} refuses a transaction whose estimated backups
 * do not fit the free space of its backup area's file system minus {@link #diskReserve()} (kept for the data
 * the transaction writes and for the handle table's commits).
 *
 * <p>One instance serves every {@link BackupStore} of a server. Thread-safe.
 */
public final class BackupBudget {
    private static final Logger LOG = LoggerFactory.getLogger(BackupBudget.class);
    /** At most one log line about refusals per this many nanoseconds; the others are counted. */
    private static final long LOG_INTERVAL_NANOS = 10_000_000_000L;
    /** No limits: for recovery, tools and tests. */
    public static final long UNLIMITED = Long.MAX_VALUE;
    /** Default of {@link #diskReserve()}: 64 MiB. */
    public static final long DEFAULT_DISK_RESERVE = 64L << 20;

    private final long perTransaction;
    private final long total;
    private final long diskReserve;
    private final AtomicLong used = new AtomicLong();
    private final LongAdder refusals = new LongAdder();
    private final AtomicLong lastLog = new AtomicLong(System.nanoTime() - LOG_INTERVAL_NANOS);
    private final AtomicLong unlogged = new AtomicLong();

    /**
     * A budget without a disk reserve: backups may take all the free space.
     *
     * @param perTransaction most backup bytes of one transaction
     * @param total most backup bytes of all transactions together
     */
    public BackupBudget(long perTransaction, long total) {
        this(perTransaction, total, 0);
    }

    /**
     * @param perTransaction most backup bytes of one transaction
     * @param total most backup bytes of all transactions together
     * @param diskReserve free bytes of a backup area's file system that backups may not take
     */
    public BackupBudget(long perTransaction, long total, long diskReserve) {
        if (perTransaction < 0 || total < 0 || diskReserve < 0) {
            throw new IllegalArgumentException("negative budget: " + perTransaction + ", " + total + ", "
                    + diskReserve);
        }
        this.perTransaction = perTransaction;
        this.total = total;
        this.diskReserve = diskReserve;
    }

    /** A budget without limits (no disk reserve either). */
    public static BackupBudget unlimited() {
        return new BackupBudget(UNLIMITED, UNLIMITED, 0);
    }

    /** Free bytes of a backup area's file system that backups may not take. */
    public long diskReserve() {
        return diskReserve;
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
     * Checks that {@code more} bytes of backups fit the free space of the file system of {@code area} (as an
     * unprivileged writer sees it) minus {@link #diskReserve()}; nothing to check for 0 bytes. Backups made
     * already are on the disk, so they are counted by the free space itself; backups that other transactions
     * are about to make are not (they may still fail with ENOSPC, which rolls them back).
     *
     * @throws BackupBudgetExceededException when they do not fit
     * @throws IOException when the free space cannot be read
     */
    void checkDiskSpace(Path area, long more) throws IOException {
        if (more <= 0) {
            return;
        }
        long usable = Files.getFileStore(area).getUsableSpace();
        long room = usable > diskReserve ? usable - diskReserve : 0;
        if (more > room) {
            throw refuse(BackupBudgetExceededException.Limit.DISK_SPACE, usable, more, diskReserve);
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
            LOG.warn("transaction refused with NFS4ERR_NOSPC: {}; {}{}", e.getMessage(), limit.advice(), others == 0 ? "" : " (" + others + " more refused since the "
                            + "last such line)");
        } else {
            unlogged.incrementAndGet();
        }
        return e;
    }
}
