package org.tcnfs.txn;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.txn.backup.BackupManager;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.SideTable;
import org.tcnfs.txn.lock.LockKey;

/**
 * What the {@link TransactionSteps} of all transactions share: the handle table and its side table of
 * recovery records, transaction ids, crash points, the background cleaner that deletes backups after a
 * commit or rollback, the keys fenced after a failed undo, and the counters the metrics read.
 *
 * <p>Thread-safe: one instance serves every compound.
 */
final class TransactionServices implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionServices.class);

    final HandleTable handles;
    final SideTable records;
    final CrashPoints crashPoints;
    final TxnIds txnIds;
    /** WRITE keys of transactions whose undo failed: NFS4ERR_DELAY until a restart recovers them. */
    final Set<LockKey> fenced;
    final AtomicLong commits = new AtomicLong();
    final AtomicLong rollbacks = new AtomicLong();
    /** Of {@link #commits}, those that took the light path ({@link LightPath}). */
    final AtomicLong lightCommits = new AtomicLong();
    /** Of {@link #rollbacks}, those of light-path compounds that had to write their record to roll back. */
    final AtomicLong lightRollbacks = new AtomicLong();
    final AtomicLong undoFailures = new AtomicLong();
    final AtomicLong stateRestoreFailures = new AtomicLong();
    private final ExecutorService cleaner;

    /**
     * @param handles the handle table, which also holds the recovery records ({@link TransactionHook#RECORDS_TABLE})
     * @param crashPoints crash injection for tests; {@link CrashPoints#NONE} in production
     * @param fenced where a failed undo fences its WRITE keys (shared with the {@link CompoundLocker})
     */
    TransactionServices(HandleTable handles, CrashPoints crashPoints, Set<LockKey> fenced) {
        this.handles = Objects.requireNonNull(handles, "handles");
        this.records = handles.sideTable(TransactionHook.RECORDS_TABLE);
        handles.journalSideTable(records); // records and commit points made durable by the row journal
        this.crashPoints = Objects.requireNonNull(crashPoints, "crashPoints");
        this.fenced = Objects.requireNonNull(fenced, "fenced");
        this.txnIds = new TxnIds(handles);
        this.cleaner = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tcnfs-backup-cleaner");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Queues the deletion of a transaction's backups on the background cleaner (once it has stopped, they stay
     * for recovery's orphan cleanup).
     */
    void discardLater(BackupManager manager, long id) {
        if (manager == null || !Files.exists(manager.directory())) {
            return;
        }
        try {
            cleaner.execute(() -> {
                try {
                    manager.discard();
                } catch (IOException | RuntimeException e) {
                    LOG.warn("txn {}: deleting the backups failed (recovery's orphan cleanup will retry): {}", id,
                            e.toString());
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.info("txn {}: the backup cleaner has stopped; its backups stay for recovery's orphan cleanup", id);
        }
    }

    /**
     * Stops the background cleaner after the deletions it has queued (at most {@code timeout}; what it has
     * not deleted stays for recovery's orphan cleanup). Harmless twice.
     */
    void stopCleaner(Duration timeout) {
        cleaner.shutdown();
        try {
            if (!cleaner.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("the backup cleaner did not finish in {}s; the backups it left are removed at the next "
                        + "start", timeout.toSeconds());
                cleaner.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cleaner.shutdownNow();
        }
    }

    @Override
    public void close() {
        stopCleaner(TransactionHook.DRAIN_TIMEOUT);
    }
}
